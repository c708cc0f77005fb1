package openai

import "github.com/chatlint/chatlint/engine/document"

// AsIs reports whether the records of a format are already examples of an
// OpenAI fine-tuning method that Convert has no chat example for, and are
// written as they are: preference (DPO) records, which OpenAI trains on in
// exactly that shape. Turning one into a chat example would keep one of its
// two answers and lose what the method learns from.
func AsIs(f document.Format) bool { return f == document.Preference }

// textNote is why a text record gives no example: OpenAI's chat
// fine-tuning has no place for plain text, and making it an assistant's
// answer to no question would invent a conversation the data never had.
const textNote = `a text record ({"text"}) holds no conversation; OpenAI chat fine-tuning has no place for plain text: no example written`
