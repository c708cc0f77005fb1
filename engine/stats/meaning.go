package stats

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
)

// What an example trains, beyond its messages: the kind of record
// (preference pairs, KTO labels), the answers of a preference record, the
// assistant messages a weight of 0 keeps out of training, and images. These
// are read as convert --to openai reads them (docs/convert.md), so stats
// counts what the converted file holds.

// kind names what a document trains: "preference" (a ShareGPT record with
// chosen/rejected, or an OpenAI preference record), "kto-desirable" or
// "kto-undesirable" (a boolean label or kto_tag), else "chat".
func kind(doc ast.Object) string {
	if doc.Get(keyTerm("chosen")) != nil || doc.Get(keyTerm("rejected")) != nil {
		return "preference"
	}
	raw, _ := field(doc, "raw").(ast.Object)
	if raw == nil {
		return "chat"
	}
	if field(raw, "preferred_output") != nil || field(raw, "non_preferred_output") != nil {
		return "preference"
	}
	for _, k := range []string{"label", "kto_tag"} {
		if b, ok := field(raw, k).(ast.Boolean); ok {
			if b {
				return "kto-desirable"
			}
			return "kto-undesirable"
		}
	}
	return "chat"
}

// answers returns the answers of a preference record as lists of
// normalized messages: the document's chosen and rejected, or an OpenAI
// preference record's preferred_output and non_preferred_output read as a
// chat record's messages.
func answers(d *document.Document, doc ast.Object) []*ast.Array {
	var out []*ast.Array
	for _, k := range []string{"chosen", "rejected"} {
		if a, ok := field(doc, k).(*ast.Array); ok {
			out = append(out, a)
		}
	}
	if out != nil {
		return out
	}
	raw, _ := field(doc, "raw").(ast.Object)
	if raw == nil { // a session's raw is null: every line is an entry
		return nil
	}
	for _, k := range []string{"preferred_output", "non_preferred_output"} {
		list := raw.Get(ast.StringTerm(k))
		if list == nil {
			continue
		}
		if _, ok := list.Value.(*ast.Array); !ok {
			continue
		}
		rec := ast.NewObject(ast.Item(ast.StringTerm("messages"), list))
		if ad := document.NewBuilder(document.Chat, d.File, document.Options{SkipLookup: true}).Add(d.Line, rec); ad != nil {
			out = append(out, ad.Messages())
		}
	}
	return out
}

// recordImages counts a record's own images list (LLaMA-Factory's images).
func recordImages(doc ast.Object) int {
	raw, _ := field(doc, "raw").(ast.Object)
	if l, ok := field(raw, "images").(*ast.Array); ok {
		return l.Len()
	}
	return 0
}

// imageParts counts the image parts of a message as given: image_url,
// input_image and image parts, and Gemini inlineData/fileData of an image
// type.
func imageParts(raw ast.Object) int {
	var parts *ast.Array
	for _, k := range []string{"content", "parts"} {
		if a, ok := field(raw, k).(*ast.Array); ok {
			parts = a
			break
		}
	}
	n := 0
	for i := 0; parts != nil && i < parts.Len(); i++ {
		p, ok := parts.Elem(i).Value.(ast.Object)
		if !ok {
			continue
		}
		switch str(p, "type") {
		case "image_url", "input_image", "image":
			n++
			continue
		}
		for _, k := range []string{"inlineData", "inline_data", "fileData", "file_data"} {
			if d, ok := field(p, k).(ast.Object); ok && (strings.HasPrefix(str(d, "mimeType"), "image/") || strings.HasPrefix(str(d, "mime_type"), "image/")) {
				n++
			}
		}
	}
	return n
}

// isZero reports whether o's member k is the number 0.
func isZero(o ast.Object, k string) bool {
	n, ok := field(o, k).(ast.Number)
	if !ok {
		return false
	}
	i, exact := n.Int()
	return exact && i == 0
}

// field is o's member k, nil when o is nil or has none.
func field(o ast.Object, k string) ast.Value {
	if o == nil {
		return nil
	}
	if t := o.Get(keyTerm(k)); t != nil {
		return t.Value
	}
	return nil
}

// keyTerms are the members stats reads, made once: a term made for every
// lookup was an allocation per member of every message.
var keyTerms = func() map[string]*ast.Term {
	m := map[string]*ast.Term{}
	for _, k := range []string{"chosen", "rejected", "raw", "preferred_output", "non_preferred_output",
		"label", "kto_tag", "images", "content", "parts", "type", "inlineData", "inline_data",
		"fileData", "file_data", "mimeType", "mime_type", "weight", "role", "tool_calls", "name", "messages"} {
		m[k] = ast.StringTerm(k)
	}
	return m
}()

// keyTerm is the term of member name k.
func keyTerm(k string) *ast.Term {
	if t, ok := keyTerms[k]; ok {
		return t
	}
	return ast.StringTerm(k)
}
