import { Module } from '@nestjs/common';
import { CryptoModule, WebhookOutboxModule } from '#application';
import { DalModule, WebhookDeliveryRepository, WebhookEndpointRepository } from '#dal';
import { WebhookEndpointsController } from './webhook-endpoints.controller.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';

/** /v1/webhook-endpoints: where the environment's webhook events go, and what became of them. */
@Module({
  imports: [
    CryptoModule,
    WebhookOutboxModule,
    DalModule.forRepositories([WebhookEndpointRepository, WebhookDeliveryRepository]),
  ],
  controllers: [WebhookEndpointsController],
  providers: [WebhookEndpointsService],
})
export class WebhooksModule {}
