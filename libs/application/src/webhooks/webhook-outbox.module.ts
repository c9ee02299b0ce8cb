import { Module } from '@nestjs/common';
import { DalModule, WebhookDeliveryRepository, WebhookEndpointRepository } from '#dal';
import { WebhookOutbox } from './webhook-outbox.js';

/** The outbox for modules whose changes cause webhook events; WebhookDispatch comes from the queue module. */
@Module({
  imports: [DalModule.forRepositories([WebhookEndpointRepository, WebhookDeliveryRepository])],
  providers: [WebhookOutbox],
  exports: [WebhookOutbox],
})
export class WebhookOutboxModule {}
