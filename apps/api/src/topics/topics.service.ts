import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { TopicRepository, type TopicRow } from '#dal';
import type { AuthContext } from '../auth/auth-context.js';
import { toCursorPage, type CursorPage } from '../http/cursor-page.js';
import type { UpdateTopicDto } from './dto/topic-subscription.dto.js';
import { TopicResponseDto, type CreateTopicDto, type ListTopicsQueryDto } from './dto/topic.dto.js';

@Injectable()
export class TopicsService {
  constructor(private readonly topics: TopicRepository) {}

  async upsert(auth: AuthContext, body: CreateTopicDto, failIfExists = false): Promise<TopicRow> {
    const existing = failIfExists ? await this.topics.findByKey(auth.environmentId, body.key) : undefined;
    if (existing) throw DomainError.alreadyExists(`Topic ${body.key} already exists`, TopicResponseDto.from(existing));
    return (await this.topics.upsert(auth, body.key, body.name)).row;
  }

  async get(auth: AuthContext, key: string): Promise<TopicRow> {
    const row = await this.topics.findByKey(auth.environmentId, key);
    if (!row) throw topicNotFound(key);
    return row;
  }

  /** Renames the topic; `data` has nowhere to be stored and is left aside. */
  async update(auth: AuthContext, key: string, body: UpdateTopicDto): Promise<TopicRow> {
    const row =
      body.name === undefined
        ? await this.topics.findByKey(auth.environmentId, key)
        : await this.topics.rename(auth.environmentId, key, body.name);
    if (!row) throw topicNotFound(key);
    return row;
  }

  async delete(auth: AuthContext, key: string): Promise<void> {
    if (!(await this.topics.delete(auth.environmentId, key))) throw topicNotFound(key);
  }

  async list(auth: AuthContext, query: ListTopicsQueryDto): Promise<CursorPage<TopicRow>> {
    const [{ rows, hasMore }, count] = await Promise.all([
      this.topics.list(auth.environmentId, query, query),
      this.topics.count(auth.environmentId, query),
    ]);
    return toCursorPage(rows, hasMore, query, count);
  }
}

export function topicNotFound(key: string): DomainError {
  return new DomainError('TOPIC_NOT_FOUND', `Topic ${key} not found`);
}
