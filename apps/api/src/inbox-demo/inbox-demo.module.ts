import { Module } from '@nestjs/common';
import { DalModule, EnvironmentRepository } from '#dal';
import { InboxDemoController } from './inbox-demo.controller.js';
import { InboxDemoPage } from './inbox-demo-page.js';

/** GET /inbox-demo: the quick start's page that shows a subscriber's notifications as they arrive. */
@Module({
  imports: [DalModule.forRepositories([EnvironmentRepository])],
  controllers: [InboxDemoController],
  providers: [InboxDemoPage],
  exports: [InboxDemoPage],
})
export class InboxDemoModule {}
