package convert

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/chatlint/chatlint/engine/jsonv"
)

// Usage is one session's line of the tool-usage report, counted on the record
// before --json-tool-calls rewrites it.
type Usage struct {
	Date, Scenario string
	ToolCalls      int
	ToolNames      []string // names of the record's tool definitions
	ClientTurns    int
	AssistantTurns int
	ToolTurns      int // assistant turns that request a tool
}

func countUsage(r *Record, date, scenario string) Usage {
	u := Usage{Date: date, Scenario: scenario}
	for _, m := range r.Messages {
		if get(m, "role") == "assistant" {
			u.ToolCalls += toolRequests(m)
		}
	}
	for _, t := range r.Tools {
		if n, ok := get(t, "name").(string); ok && n != "" {
			u.ToolNames = append(u.ToolNames, n)
		}
	}
	u.ClientTurns, u.AssistantTurns, u.ToolTurns = countTurns(r.Messages)
	return u
}

// toolRequests counts the tool calls of an assistant message: its tool_calls,
// a legacy function_call, or <tool_call> tags in its text.
func toolRequests(m *jsonv.Object) int {
	if calls, ok := get(m, "tool_calls").([]jsonv.Value); ok {
		return len(calls)
	}
	if isObject(get(m, "function_call")) {
		return 1
	}
	if s, ok := contentText(get(m, "content")); ok {
		return strings.Count(s, "<tool_call>")
	}
	return 0
}

func hasToolRequest(m *jsonv.Object) bool {
	if calls, ok := get(m, "tool_calls").([]jsonv.Value); ok && len(calls) > 0 {
		return true
	}
	if isObject(get(m, "function_call")) {
		return true
	}
	s, ok := contentText(get(m, "content"))
	return ok && strings.Contains(s, "<tool_call>")
}

// countTurns counts runs of client messages (system, user) and of assistant
// messages; tool results (tool, function) do not break a run, other roles
// do. An assistant run with a tool request is a tool turn.
func countTurns(msgs []*jsonv.Object) (client, assistant, tools int) {
	prev := ""
	pending := false
	for _, m := range msgs {
		role, _ := get(m, "role").(string)
		var group string
		switch role {
		case "tool", "function":
			continue
		case "assistant":
			group = "assistant"
		case "system", "user":
			group = "client"
		default:
			if pending {
				tools++
				pending = false
			}
			prev = ""
			continue
		}
		if group != prev {
			if prev == "assistant" && pending {
				tools++
				pending = false
			}
			if group == "assistant" {
				assistant++
			} else {
				client++
			}
			prev = group
		}
		if group == "assistant" && hasToolRequest(m) {
			pending = true
		}
	}
	if pending {
		tools++
	}
	return client, assistant, tools
}

// usageRow is one line of tool-usage.csv: the sum over a group of sessions.
type usageRow struct {
	date, scenario               string
	sessions, calls              int
	names                        map[string]bool
	client, assistant, toolTurns int
}

// usageTable sums sessions into rows as they come, so memory grows with the
// number of groups, not of sessions: by date, by scenario, or one row for
// everything (groupBy "").
type usageTable struct {
	groupBy string
	rows    map[[2]string]*usageRow
	keys    [][2]string
}

func newUsageTable(groupBy string) *usageTable {
	return &usageTable{groupBy: groupBy, rows: map[[2]string]*usageRow{}}
}

func (t *usageTable) add(u Usage) {
	var k [2]string
	switch t.groupBy {
	case GroupDate:
		k = [2]string{u.Date, ""}
	case GroupScenario:
		k = [2]string{"", u.Scenario}
	}
	r := t.rows[k]
	if r == nil {
		r = &usageRow{date: k[0], scenario: k[1], names: map[string]bool{}}
		t.rows[k] = r
		t.keys = append(t.keys, k)
	}
	r.sessions++
	r.calls += u.ToolCalls
	for _, n := range u.ToolNames {
		r.names[n] = true
	}
	r.client += u.ClientTurns
	r.assistant += u.AssistantTurns
	r.toolTurns += u.ToolTurns
}

// write writes tool-usage.csv, rows sorted by date then scenario.
func (t *usageTable) write(w io.Writer) error {
	keys := append([][2]string(nil), t.keys...)
	sort.SliceStable(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	if _, err := io.WriteString(w, "date,scenario,session_count,tool_call_count,tool_definition_count,client_turns,assistant_turns,assistant_turns_with_tools\n"); err != nil {
		return err
	}
	for _, k := range keys {
		r := t.rows[k]
		if _, err := fmt.Fprintf(w, "%s,%s,%d,%d,%d,%d,%d,%d\n", r.date, csvField(r.scenario), r.sessions, r.calls, len(r.names), r.client, r.assistant, r.toolTurns); err != nil {
			return err
		}
	}
	return nil
}

// csvField quotes a field that holds a comma, a quote or a line break.
func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\n\r") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}
