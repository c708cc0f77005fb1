package report

// Stats is the optional statistics section of the HTML report: what a
// command that measures the dataset (chatlint stats) found. The report
// package only draws it; the measuring lives with the command, which fills
// this struct and hands it to the writer through StatsReceiver before Close.
// A nil Stats leaves the section out; an empty field leaves its chart out.
type Stats struct {
	// Examples is the number of examples (conversations) measured.
	Examples int
	// Tokenizer says how tokens were counted ("cl100k_base", "bytes/4").
	Tokenizer string
	// Model is the model the data is meant for; TokenLimit its context
	// limit in tokens (0: no limit line).
	Model      string
	TokenLimit int
	// Tokens is the histogram of tokens per example: consecutive buckets,
	// each [Lo, Hi).
	Tokens []Bucket
	// OverLimit counts the examples with more than TokenLimit tokens.
	OverLimit int
	// Min, Median, P95 and Max tokens per example (shown when Examples > 0).
	Min, Median, P95, Max int
	// Roles counts messages per role, Tools tool calls per tool name; the
	// page draws them in the order given (most first reads best).
	Roles []Count
	Tools []Count
}

// Bucket is one bar of a histogram: Count values in [Lo, Hi).
type Bucket struct {
	Lo, Hi, Count int
}

// Count is a named count.
type Count struct {
	Name  string
	Count int
}

// maxStatBars caps the bars of a count chart (roles, tools); the rest are
// summed into one line under the chart.
const maxStatBars = 25

// The role and tool charts sit side by side, each half the page wide.
const (
	halfWidth  = 440
	halfLabelW = 180
	halfLabel  = 20
)

// statsView is the section as the template draws it.
type statsView struct {
	*Stats
	TokenChart           histogram
	RoleChart, ToolChart barChart
	MoreTools, MoreCalls int
	HasTokens            bool
}

func newStatsView(s *Stats) *statsView {
	if s == nil {
		return nil
	}
	v := &statsView{Stats: s, HasTokens: len(s.Tokens) > 0}
	if v.HasTokens {
		v.TokenChart = layoutHistogram(s.Tokens, s.TokenLimit)
	}
	v.RoleChart = layoutBarsIn(countBars(s.Roles), halfWidth, halfLabelW, halfLabel)
	tools := s.Tools
	if len(tools) > maxStatBars {
		for _, c := range tools[maxStatBars:] {
			v.MoreTools++
			v.MoreCalls += c.Count
		}
		tools = tools[:maxStatBars]
	}
	v.ToolChart = layoutBarsIn(countBars(tools), halfWidth, halfLabelW, halfLabel)
	return v
}

func countBars(cs []Count) []barItem {
	var items []barItem
	for _, c := range cs {
		items = append(items, barItem{Label: escapeControls(c.Name), Parts: []barPart{{N: c.Count, Class: "bar"}}})
	}
	return items
}
