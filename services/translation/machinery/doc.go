// Package machinery calls machine translation engines: LibreTranslate,
// DeepL, Google Cloud Translation v3, Azure AI Translator, ModernMT and
// any OpenAI-compatible chat endpoint (OpenAI itself, hosted LLMs, local
// servers such as Ollama). Each engine is built from the settings the
// reference's machinery forms take (New) and translates a batch of
// strings (Engine.Translate), with a timeout, retries on 429 and 503
// that honour Retry-After, and errors that never carry its credentials.
//
// The translation memory, the other source of suggestions, lives in the
// store; this package only speaks HTTP.
package machinery
