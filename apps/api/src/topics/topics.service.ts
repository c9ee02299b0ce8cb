import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { TopicRepository, type TopicRow } from '#dal';
import type { AuthContext } from '../auth/auth-context.js';
import { toCursorPage, type CursorPage } from '../http/cursor-page.js';
import type { CreateTopicDto, ListTopicsQueryDto } from './dto/topic.dto.js';

@Injectable()
export class TopicsService {
  constructor(private readonly topics: TopicRepository) {}

  async upsert(auth: AuthContext, body: CreateTopicDto, failIfExists = false): Promise<TopicRow> {
    if (failIfExists && (await this.topics.findByKey(auth.environmentId, body.key))) {
      throw new DomainError('CONFLICT', `Topic ${body.key} already exists`);
    }
    return (await this.topics.upsert(auth, body.key, body.name)).row;
  }

  async get(auth: AuthContext, key: string): Promise<TopicRow> {
    const row = await this.topics.findByKey(auth.environmentId, key);
    if (!row) throw topicNotFound(key);
    return row;
  }

  async delete(auth: AuthContext, key: string): Promise<void> {
    if (!(await this.topics.delete(auth.environmentId, key))) throw topicNotFound(key);
  }

  async list(auth: AuthContext, query: ListTopicsQueryDto): Promise<CursorPage<TopicRow>> {
    const { rows, hasMore } = await this.topics.list(auth.environmentId, query, query);
    return toCursorPage(rows, hasMore, query);
  }
}

export function topicNotFound(key: string): DomainError {
  return new DomainError('TOPIC_NOT_FOUND', `Topic ${key} not found`);
}
