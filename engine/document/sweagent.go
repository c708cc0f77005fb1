package document

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// SWEAgent is a SWE-agent trajectory (.traj): one JSON object
// {"environment", "trajectory": [{"action", "observation", "response",
// "thought", "state"}], "history": [{"role", "content", "agent",
// "thought", "action", "tool_calls", "tool_call_ids", "message_type",
// "is_demo"}], "info": {"exit_status", "submission", "model_stats"}}
// (a demonstration may hold only history). history is what the model was
// sent and answered, OpenAI-style: its messages are the conversation (the
// demonstrations inside it too: they were part of the prompt). A tool
// message names the call it answers in tool_call_ids, a list. trajectory
// repeats each step's action and observation with the environment's
// state: run data, not conversation.
const SWEAgent Format = "swe-agent"

var sweAgentAdapter = &Adapter{
	Format:     SWEAgent,
	Summary:    `a SWE-agent trajectory (.traj): {"history": [{"role", "content", "thought", "action", "tool_calls", "tool_call_ids"}], "trajectory", "info", "environment"}, one JSON document`,
	Detect:     isSWEAgent,
	Shape:      `a SWE-agent trajectory {"history": [{"role": string, "content", …}], "trajectory"?, "info"?}`,
	NewBuilder: func(file string, opts Options) Builder { return sweAgent{file: file, opts: opts} },
	Unfixable: func(ast.Object) string {
		return "a SWE-agent trajectory is the record of a run (history beside trajectory and info), which fix does not rewrite; check it, or convert it with convert --to openai"
	},
}

var (
	keySWEHistory     = ast.StringTerm("history")
	keySWETrajectory  = ast.StringTerm("trajectory")
	keySWEInfo        = ast.StringTerm("info")
	keySWEToolCallIDs = ast.StringTerm("tool_call_ids")
)

// isSWEAgent tells a trajectory by its history: a list of messages with a
// string role (LLaMA-Factory's history is a list of [query, answer]
// pairs, which this leaves alone). An empty history counts with the
// trajectory list or info object beside it.
func isSWEAgent(rec ast.Object) bool {
	h := arrayField(rec, keySWEHistory)
	if h == nil || get(rec, KeyMessages) != nil {
		return false
	}
	if h.Len() == 0 {
		return arrayField(rec, keySWETrajectory) != nil || objectField(rec, keySWEInfo) != nil
	}
	first, _ := h.Elem(0).Value.(ast.Object)
	return isStringMember(first, keyRole)
}

type sweAgent struct {
	file string
	opts Options
}

func (s sweAgent) Add(line int, rec ast.Object) *Document {
	var un unmappedSet
	un.addOthers(line, rec, "", "history")
	ms := agentMessages(arrayField(rec, keySWEHistory), line, "/history", &un, "history[].",
		"role", "content", "tool_calls", "tool_call_ids", "tool_call_id", "thought", "action")
	d := newDoc(SWEAgent, s.file, line, fallbackID(s.file, line), s.opts)
	mode := detectMode(ms, s.opts.ToolCalls)
	d.Value = newDocument(d, mode, ms, emptyArray, emptyArray, ast.NewTerm(rec))
	d.Unmapped = un.list("SWE-agent members")
	return d
}

func (sweAgent) Finish() *Document { return nil }

// agentMessages reads a list of OpenAI-style messages of an agent's
// trajectory at base: a tool message answers the call its tool_call_id
// names, or the first of its tool_call_ids (SWE-agent). Each message's
// members other than known are named in un under prefix. thought and
// action, where known, are SWE-agent's copies of what content and
// tool_calls hold.
func agentMessages(list *ast.Array, line int, base string, un *unmappedSet, prefix string, known ...string) []message {
	var ms []message
	for i := 0; list != nil && i < list.Len(); i++ {
		m := readMessage(list.Elem(i), line, strTerm(pointerIndex(base, i)), -1)
		if m.obj != nil {
			un.addOthers(line, m.obj, prefix, known...)
			if ids := arrayField(m.obj, keySWEToolCallIDs); ids != nil && m.role == "tool" && m.callID == nil && ids.Len() > 0 {
				m.callID = ids.Elem(0)
				if ids.Len() > 1 {
					un.add(line, prefix+"tool_call_ids beyond the first")
				}
			}
		}
		ms = append(ms, m)
	}
	return ms
}
