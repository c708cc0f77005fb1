package document

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// Instruction records: a prompt and the completion to learn, one per line.
// Two spellings are read:
//
//   - {"prompt", "completion"}: Together's instruction format (the prompt or
//     completion may be a list of text and image_url parts), OpenAI's
//     legacy completions fine-tuning and Bedrock's text-to-text records;
//   - {"instruction", "input", "output"}: the Alpaca layout (input
//     optional), as Stanford Alpaca and LLaMA-Factory publish it.
//
// The document holds two messages: a user message with the prompt (Alpaca:
// the instruction, then a blank line and the input when there is one) and an
// assistant message with the completion. Neither exists as an object in the
// record, so each message's raw is built, {"role", "content"}, its content
// the member's value as given (Alpaca's user content joined as the model
// sees it); its path is the member's (/prompt, /completion, /instruction,
// /output).
var instructionAdapter = &Adapter{
	Format:  Instruction,
	Summary: `prompt/completion records: {"prompt", "completion"} (Together, OpenAI legacy, Bedrock), or Alpaca {"instruction", "input", "output"}`,
	Detect: func(rec ast.Object) bool {
		return get(rec, keyPrompt) != nil && get(rec, keyCompletion) != nil ||
			get(rec, keyInstruction) != nil && get(rec, keyOutput) != nil
	},
	Shape:      `a prompt and a completion (or Alpaca's instruction and output)`,
	NewBuilder: func(file string, opts Options) Builder { return instructionBuilder{file: file, opts: opts} },
	Unfixable: func(ast.Object) string {
		return "an instruction record has no messages list for a cleanup rule to edit"
	},
}

var (
	keyPrompt      = ast.StringTerm("prompt")
	keyCompletion  = ast.StringTerm("completion")
	keyInstruction = ast.StringTerm("instruction")
)

type instructionBuilder struct {
	file string
	opts Options
}

func (b instructionBuilder) Add(line int, rec ast.Object) *Document {
	var ms []message
	if p, c := get(rec, keyPrompt), get(rec, keyCompletion); p != nil && c != nil {
		ms = append(ms, builtMessage("user", p, line, "/prompt"), builtMessage("assistant", c, line, "/completion"))
	} else {
		ms = append(ms, builtMessage("user", alpacaPrompt(rec), line, "/instruction"))
		ms = append(ms, builtMessage("assistant", get(rec, keyOutput), line, "/output"))
	}
	id := stringField(rec, keyID)
	if id == "" {
		id = fallbackID(b.file, line)
	}
	d := newDoc(Instruction, b.file, line, id, b.opts)
	d.Value = newDocument(d, detectMode(ms, b.opts.ToolCalls), ms, emptyArray, emptyArray, ast.NewTerm(rec))
	return d
}

func (instructionBuilder) Finish() *Document { return nil }

// alpacaPrompt is the user's turn of an Alpaca record: the instruction,
// then the input after a blank line when it is a non-empty string (the
// Alpaca prompt template's layout); the instruction as given otherwise.
func alpacaPrompt(rec ast.Object) *ast.Term {
	ins := get(rec, keyInstruction)
	if ins == nil {
		return nil
	}
	s, ok := ins.Value.(ast.String)
	in := get(rec, keyInput)
	if in == nil || !ok {
		return ins
	}
	if v, ok := in.Value.(ast.String); ok && v != "" {
		return ast.StringTerm(string(s) + "\n\n" + string(v))
	}
	return ins
}

// builtMessage is a message a record holds as one member's value: raw is
// built as {"role", "content"}.
func builtMessage(role string, content *ast.Term, line int, path string) message {
	if content == nil {
		content = ast.NullTerm()
	}
	o := ast.NewObject([2]*ast.Term{keyRole, ast.StringTerm(role)}, [2]*ast.Term{keyContent, content})
	m := message{raw: ast.NewTerm(o), obj: o, role: role, line: line, pathTerm: strTerm(path), chatIndex: -1}
	m.text, m.hasContent = contentText(content)
	if _, ok := content.Value.(ast.String); ok {
		m.textTerm = content
	}
	return m
}
