import { Controller, Get, Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Access } from '../auth/access-areas.js';

/** Routes that exist only with ENABLE_TEST_ROUTES=true, to prove error paths end to end. */
@ApiExcludeController()
@Access('content')
@Controller('v1/test')
class TestRoutesController {
  @Get('failure')
  fail(): never {
    throw new Error('Deliberate failure for the 500 error shape');
  }
}

@Module({ controllers: [TestRoutesController] })
export class TestRoutesModule {}
