package document

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// MiniSWEAgent is a mini-swe-agent trajectory (*.traj.json): one JSON object
// {"info": {"model_stats", "config", "mini_version", "exit_status",
// "submission"}, "messages": [{"role": "system"|"user"|"assistant"|"tool"|
// "exit", "content", "tool_calls", "tool_call_id", "extra"}],
// "trajectory_format": "mini-swe-agent-1.x", "instance_id"}. (The bare
// list of messages of the project's test data is read as
// openai-responses, a list of messages.) The messages are LiteLLM dumps of what the model was sent and answered; the closing
// {"role": "exit"} message records how the run ended (its submission), not
// a turn: it is left out of the conversation and named for convert.
const MiniSWEAgent Format = "mini-swe-agent"

var miniSWEAgentAdapter = &Adapter{
	Format:     MiniSWEAgent,
	Summary:    `a mini-swe-agent trajectory: {"info", "messages": [{"role", "content", "tool_calls", "extra"}], "trajectory_format": "mini-swe-agent-…"}, one JSON document`,
	Detect:     isMiniSWEAgent,
	Shape:      `a mini-swe-agent trajectory {"trajectory_format": "mini-swe-agent-…" or "info": {"mini_version"}, "messages": [...]}`,
	NewBuilder: func(file string, opts Options) Builder { return miniSWEAgent{file: file, opts: opts} },
	Unfixable: func(ast.Object) string {
		return "a mini-swe-agent trajectory is the record of a run, which fix does not rewrite; check it, or convert it with convert --to openai"
	},
}

var (
	keyMiniFormat  = ast.StringTerm("trajectory_format")
	keyMiniVersion = ast.StringTerm("mini_version")
)

// isMiniSWEAgent tells a trajectory by its trajectory_format or its
// info.mini_version beside the messages list.
func isMiniSWEAgent(rec ast.Object) bool {
	if arrayField(rec, KeyMessages) == nil {
		return false
	}
	return strings.HasPrefix(stringField(rec, keyMiniFormat), "mini-swe-agent") ||
		isStringMember(objectField(rec, keySWEInfo), keyMiniVersion)
}

type miniSWEAgent struct {
	file string
	opts Options
}

var keyMiniInstance = ast.StringTerm("instance_id")

func (b miniSWEAgent) Add(line int, rec ast.Object) *Document {
	var un unmappedSet
	un.addOthers(line, rec, "", "messages")
	ms := miniKeep(agentMessages(arrayField(rec, KeyMessages), line, "/messages", &un, "messages[].", "role", "content", "tool_calls", "tool_call_id"), &un)
	id := stringField(rec, keyMiniInstance)
	if id == "" {
		id = fallbackID(b.file, line)
	}
	d := newDoc(MiniSWEAgent, b.file, line, id, b.opts)
	mode := detectMode(ms, b.opts.ToolCalls)
	d.Value = newDocument(d, mode, ms, emptyArray, emptyArray, ast.NewTerm(rec))
	d.Unmapped = un.list("mini-swe-agent members")
	return d
}

func (miniSWEAgent) Finish() *Document { return nil }

// keep reads the exit message. mini-swe-agent ends a run when a command's
// output starts with its submission marker, and records that output (the
// submission) as the exit message instead of a tool message: where the
// last assistant message has a call still unanswered, the exit message is
// its result. Otherwise (a text-action run) it answers nothing and is
// left out of the conversation.
func miniKeep(ms []message, un *unmappedSet) []message {
	var out []message
	for _, m := range ms {
		if m.role == "exit" {
			if id := openCall(out); id != nil {
				m.role, m.roleTerm, m.callID = "tool", nil, id
				un.add(m.line, "the exit message's extra (exit status, the submission again)")
			} else {
				un.add(m.line, "the exit message (how the run ended, its submission)")
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
