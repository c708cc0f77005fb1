package document

import (
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// MiniSWEAgent is a mini-swe-agent trajectory (*.traj.json): one JSON object
// {"info": {"model_stats", "config", "mini_version", "exit_status",
// "submission"}, "messages": [{"role": "system"|"user"|"assistant"|"tool"|
// "exit", "content", "tool_calls", "tool_call_id", "extra"}],
// "trajectory_format": "mini-swe-agent-1.x", "instance_id"}, or, in the
// project's own test data, the messages alone as a bare list. The messages
// are LiteLLM dumps of what the model was sent and answered; the closing
// {"role": "exit"} message records how the run ended (its submission), not
// a turn: it is left out of the conversation and named for convert.
const MiniSWEAgent Format = "mini-swe-agent"

var miniSWEAgentAdapter = &Adapter{
	Format:     MiniSWEAgent,
	Summary:    `a mini-swe-agent trajectory: {"info", "messages": [{"role", "content", "tool_calls", "extra"}], "trajectory_format": "mini-swe-agent-…"}, or its messages as a bare list`,
	PerFile:    true,
	Detect:     isMiniSWEAgent,
	Shape:      `a mini-swe-agent trajectory {"trajectory_format": "mini-swe-agent-…" or "info": {"mini_version"}, "messages": [...]}, or a list of {"role", "content"} messages`,
	NewBuilder: func(file string, opts Options) Builder { return &miniSWEAgent{file: file, opts: opts} },
	Unfixable: func(ast.Object) string {
		return "a mini-swe-agent trajectory is the record of a run, which fix does not rewrite; check it, or convert it with convert --to openai"
	},
}

var (
	keyMiniFormat  = ast.StringTerm("trajectory_format")
	keyMiniVersion = ast.StringTerm("mini_version")
)

// miniRoles are the roles of a mini-swe-agent message.
var miniRoles = map[string]bool{"system": true, "user": true, "assistant": true, "tool": true, "exit": true}

// miniMessageKeys are the members a message of a bare list may have: a
// message with any other member is not read as one (a goose line has
// "created", a pi line "type").
var miniMessageKeys = map[string]bool{"role": true, "content": true, "extra": true, "tool_calls": true,
	"tool_call_id": true, "function_call": true, "provider_specific_fields": true}

// isMiniSWEAgent tells a trajectory by its trajectory_format or its
// info.mini_version beside the messages list; a bare list by its first
// element, a message with a mini-swe-agent role and no member a message
// of the format does not have.
func isMiniSWEAgent(rec ast.Object) bool {
	if arrayField(rec, KeyMessages) != nil {
		return strings.HasPrefix(stringField(rec, keyMiniFormat), "mini-swe-agent") ||
			isStringMember(objectField(rec, keySWEInfo), keyMiniVersion)
	}
	if !miniRoles[stringField(rec, keyRole)] || get(rec, keyContent) == nil {
		return false
	}
	fits := true
	rec.Foreach(func(k, _ *ast.Term) {
		s, _ := k.Value.(ast.String)
		fits = fits && miniMessageKeys[string(s)]
	})
	return fits
}

type miniSWEAgent struct {
	file  string
	opts  Options
	first int
	raw   *ast.Term
	ms    []message
	un    unmappedSet
}

func (b *miniSWEAgent) Add(line int, rec ast.Object) *Document {
	if b.first == 0 {
		b.first = line
	}
	if list := arrayField(rec, KeyMessages); list != nil && b.raw == nil && len(b.ms) == 0 {
		// The whole trajectory in one record.
		b.raw = ast.NewTerm(rec)
		b.un.addOthers(line, rec, "", "messages")
		b.ms = b.keep(agentMessages(list, line, "/messages", &b.un, "messages[].", miniKnown...))
		return nil
	}
	// One message of a bare list: its own record, path "".
	b.ms = append(b.ms, b.keep(agentMessages(ast.NewArray(ast.NewTerm(rec)), line, "", &b.un, "messages[].", miniKnown...))...)
	for i := len(b.ms) - 1; i >= 0 && b.ms[i].line == line; i-- {
		b.ms[i].path, b.ms[i].pathTerm = "", rootPath
	}
	return nil
}

var miniKnown = []string{"role", "content", "tool_calls", "tool_call_id"}

// keep reads the exit message. mini-swe-agent ends a run when a command's
// output starts with its submission marker, and records that output (the
// submission) as the exit message instead of a tool message: where the
// last assistant message has a call still unanswered, the exit message is
// its result. Otherwise (a text-action run) it answers nothing and is
// left out of the conversation.
func (b *miniSWEAgent) keep(ms []message) []message {
	var out []message
	for _, m := range ms {
		if m.role == "exit" {
			if id := openCall(append(slices.Clip(b.ms), out...)); id != nil {
				m.role, m.roleTerm, m.callID = "tool", nil, id
				b.un.add(m.line, "the exit message's extra (exit status, the submission again)")
			} else {
				b.un.add(m.line, "the exit message (how the run ended, its submission)")
				continue
			}
		}
		out = append(out, m)
	}
	return out
}

// openCall returns the id of the first call of the last assistant message
// that no tool message after it answers, nil when there is none.
func openCall(ms []message) *ast.Term {
	answered := map[string]bool{}
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		switch m.role {
		case "tool":
			if m.callID != nil {
				if s, ok := m.callID.Value.(ast.String); ok {
					answered[string(s)] = true
				}
			}
		case "assistant":
			calls := m.callList()
			for k := 0; calls != nil && k < calls.Len(); k++ {
				c, _ := calls.Elem(k).Value.(ast.Object)
				if id := stringTerm(c, keyID); id.Value.(ast.String) != "" && !answered[string(id.Value.(ast.String))] {
					return id
				}
			}
			return nil
		default:
			return nil
		}
	}
	return nil
}

func (b *miniSWEAgent) Finish() *Document {
	if b.first == 0 {
		return nil
	}
	d := newDoc(MiniSWEAgent, b.file, b.first, fallbackID(b.file, b.first), b.opts)
	if b.raw != nil {
		if id := stringField(b.raw.Value.(ast.Object), ast.StringTerm("instance_id")); id != "" {
			d.ID = id
		}
	}
	raw := b.raw
	if raw == nil {
		raw = ast.NullTerm()
	}
	mode := detectMode(b.ms, b.opts.ToolCalls)
	d.Value = newDocument(d, mode, b.ms, emptyArray, emptyArray, raw)
	d.Unmapped = b.un.list("mini-swe-agent members")
	return d
}
