export { ChatModelError, OpenAiCompatibleModel, type ChatMessage, type ChatModel } from './chat-model.js';
export { keywordsOf, MAX_KEYWORDS, MAX_RECORDS, retrieve } from './retrieval.js';
export { AiCommandService, listingOf, promptOf, type AiAnswer, type AnswerRecord } from './service.js';
