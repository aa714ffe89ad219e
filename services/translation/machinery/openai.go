package machinery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// openai is an OpenAI-compatible chat completions endpoint (OpenAI, a
// hosted LLM, a local server such as Ollama): POST {base_url}/chat/completions
// with "Authorization: Bearer <key>", the strings as a JSON request in the
// user message, and a JSON array of translations expected back.
type openai struct {
	h                *httpClient
	base, key, model string
	persona, style   string
}

func newOpenAI(s Settings, h *httpClient) (Engine, error) {
	model := s.str("model", "")
	if model == "" || model == "auto" {
		model = "gpt-4o-mini"
	}
	if model == "custom" {
		model = s.str("custom_model", "")
	}
	return &openai{h: h, base: s.str("base_url", "https://api.openai.com/v1"), key: s.str("key", ""), model: model,
		persona: s.str("persona", ""), style: s.str("style", "")}, nil
}

func (*openai) ID() string    { return "openai" }
func (*openai) Name() string  { return "OpenAI" }
func (*openai) MaxScore() int { return 90 }

// openaiBatch is how many strings one completion translates.
const openaiBatch = 20

// systemPrompt is the instruction of every request: the output shape
// first, so that any chat model answers something this can read.
func (e *openai) systemPrompt() string {
	var b strings.Builder
	b.WriteString("You are a professional translation engine for software localization.\n")
	for _, extra := range []string{e.persona, e.style} {
		if extra = strings.TrimSpace(extra); extra != "" {
			b.WriteString(strings.TrimSuffix(extra, ".") + ".\n")
		}
	}
	b.WriteString("The user sends a JSON object with source_language, target_language and strings (an array).\n" +
		"Translate every string from the source language to the target language. Keep placeholders (such as %s, {0}, {name}), " +
		"markup, leading and trailing whitespace and final punctuation as they are.\n" +
		"Answer ONLY with a JSON array of the translated strings, one per input string, in the same order, without code fences.")
	return b.String()
}

func (e *openai) Translate(ctx context.Context, source, target string, texts []string) ([]string, error) {
	return chunks(texts, openaiBatch, func(piece []string) ([]string, error) {
		user, _ := json.Marshal(map[string]any{"source_language": source, "target_language": target, "strings": piece})
		body := map[string]any{"model": e.model, "temperature": 0, "messages": []map[string]string{
			{"role": "system", "content": e.systemPrompt()}, {"role": "user", "content": string(user)}}}
		var out struct {
			Choices []struct {
				Message struct {
					Content string `json:"content"`
				} `json:"message"`
			} `json:"choices"`
		}
		err := e.h.do(ctx, request{method: http.MethodPost, url: joinURL(e.base, "chat/completions"), body: body,
			header: http.Header{"Authorization": {"Bearer " + e.key}}, timeout: 120 * time.Second}, &out)
		if err != nil {
			return nil, err
		}
		if len(out.Choices) == 0 {
			return nil, errors.New("the model answered no choice")
		}
		return parseTranslations(out.Choices[0].Message.Content, len(piece))
	})
}

// parseTranslations reads the model's answer: a JSON array of n strings,
// perhaps in a code fence, or of objects with "text" or "translation".
func parseTranslations(content string, n int) ([]string, error) {
	content = strings.TrimSpace(content)
	if strings.HasPrefix(content, "```") {
		content = strings.TrimPrefix(content, "```")
		content = strings.TrimPrefix(content, "json")
		content = strings.TrimSuffix(strings.TrimSpace(content), "```")
	}
	var items []json.RawMessage
	if err := json.Unmarshal([]byte(content), &items); err != nil {
		if n == 1 && !strings.HasPrefix(content, "[") {
			return []string{content}, nil
		}
		return nil, fmt.Errorf("the model did not answer a JSON array: %w", err)
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		var s string
		if json.Unmarshal(it, &s) == nil {
			out = append(out, s)
			continue
		}
		var obj struct {
			Text        string `json:"text"`
			Translation string `json:"translation"`
		}
		if err := json.Unmarshal(it, &obj); err != nil {
			return nil, fmt.Errorf("the model answered an item that is not a string: %w", err)
		}
		out = append(out, obj.Text+obj.Translation)
	}
	if len(out) != n {
		return nil, fmt.Errorf("the model answered %d translations for %d strings", len(out), n)
	}
	return out, nil
}
