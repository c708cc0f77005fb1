package parquetrows

// The columns Hugging Face datasets keep a conversation in, besides a
// messages column (which the chat adapter reads as it is): a prompt that is
// a list of {role, content} (verl and SkyRL RL data, TRL's conversational
// prompt-only and prompt-completion sets), optionally followed by a
// completion list; or flat text columns, a prompt (or instruction, query,
// question) with its answer (response, completion, output, answer) and a
// system prompt (system_prompt, system). A preference row's chosen and
// rejected are not an answer: taking chosen alone would train on it as the
// only answer and lose the rejected one.
var (
	promptColumns = []string{"prompt", "instruction", "query", "question"}
	answerColumns = []string{"response", "completion", "output", "answer"}
	systemColumns = []string{"system_prompt", "system"}
)

// Messages returns the messages a row's columns hold when it has no
// messages column, nil when it has one or holds no conversation.
func Messages(row map[string]any) []any {
	if _, ok := row["messages"]; ok {
		return nil
	}
	if _, ok := row["conversations"]; ok {
		return nil // ShareGPT: the sharegpt adapter reads it
	}
	var out []any
	for _, k := range systemColumns {
		if s, ok := row[k].(string); ok && s != "" {
			out = append(out, map[string]any{"role": "system", "content": s})
			break
		}
	}
	prompt := false
	for _, k := range promptColumns {
		switch v := row[k].(type) {
		case []any:
			if isMessages(v) {
				out = append(out, v...)
				prompt = true
			}
		case string:
			out = append(out, map[string]any{"role": "user", "content": v})
			prompt = true
		}
		if prompt {
			break
		}
	}
	if !prompt {
		return nil
	}
	for _, k := range answerColumns {
		switch v := row[k].(type) {
		case []any:
			if isMessages(v) {
				return append(out, v...)
			}
		case string:
			return append(out, map[string]any{"role": "assistant", "content": v})
		}
	}
	return out
}

// isMessages reports whether a list holds {role, content} objects.
func isMessages(l []any) bool {
	for _, e := range l {
		o, ok := e.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := o["role"].(string); !ok {
			return false
		}
	}
	return len(l) > 0
}
