import got from 'got';
import type { AiConfig } from '../config.js';

/** One message of a chat-completions conversation. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A language model behind the chat-completions API shape; the only thing `POST /ai/commands` sends records to. */
export interface ChatModel {
  /** The model's name, as answered (`model`). */
  readonly name: string;
  complete(messages: ChatMessage[]): Promise<string>;
}

/** The model failed to answer (unreachable, an error status, an empty answer). */
export class ChatModelError extends Error {}

/**
 * An OpenAI-compatible chat-completions API (`POST {base}/chat/completions`): OpenAI itself, a
 * local Ollama (`http://127.0.0.1:11434/v1`), vLLM, llama.cpp's server, LiteLLM, ...
 * `temperature` 0 so the same records and question give the same answer where the server allows.
 */
export class OpenAiCompatibleModel implements ChatModel {
  constructor(private readonly config: AiConfig) {}

  get name(): string {
    return this.config.model;
  }

  async complete(messages: ChatMessage[]): Promise<string> {
    return (await this.completeWithUsage(messages)).text;
  }

  /**
   * The answer and the tokens the API says it used (`usage.total_tokens`; when the server gives
   * none, an estimate of four characters a token over what was sent and answered, rounded up).
   */
  async completeWithUsage(messages: ChatMessage[]): Promise<{ text: string; tokens: number }> {
    let response;
    try {
      response = await got.post(`${this.config.baseUrl}/chat/completions`, {
        headers: this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {},
        json: { model: this.config.model, messages, temperature: 0, stream: false },
        throwHttpErrors: false,
        retry: { limit: 0 },
        timeout: { request: this.config.timeoutMs },
      });
    } catch (error) {
      throw new ChatModelError(`the language model is unreachable (${(error as Error).message})`);
    }
    if (response.statusCode !== 200) throw new ChatModelError(`the language model answered ${response.statusCode}`);
    let content: unknown;
    let total: unknown;
    try {
      const parsed = JSON.parse(String(response.body)) as { choices?: Array<{ message?: { content?: unknown } }>; usage?: { total_tokens?: unknown } };
      content = parsed.choices?.[0]?.message?.content;
      total = parsed.usage?.total_tokens;
    } catch {
      content = undefined;
    }
    if (typeof content !== 'string' || content.trim() === '') throw new ChatModelError('the language model gave no answer');
    const text = content.trim();
    const estimate = Math.ceil((messages.reduce((sum, message) => sum + message.content.length, 0) + text.length) / 4);
    const tokens = typeof total === 'number' && Number.isInteger(total) && total >= 0 ? total : estimate;
    return { text, tokens };
  }
}
