package report

import (
	"cmp"
	"io"
	"slices"

	"github.com/chatlint/chatlint/engine/finding"
)

// DefaultHTMLSample is how many findings of each rule the HTML report keeps
// for its table. The counts are always complete; the table is a sample so a
// run with a million findings still gives a page a browser opens.
const DefaultHTMLSample = 200

// maxSampleMessage caps each sampled message (runes): the page's size is
// bounded by rules × sample × this, whatever a record holds.
const maxSampleMessage = 500

// htmlWriter writes one self-contained HTML page: summary, charts and a
// filterable sample of the findings. It streams: it keeps counts per rule
// and per file and at most perRule findings of each rule, never the run.
type htmlWriter struct {
	w       io.Writer
	opts    Options
	perRule int
	rules   *ruleTable
	tally   []ruleTally // parallel to rules.rules
	files   map[string]*fileTally
	order   []string // files in order of first sight
	seq     int
	stats   *Stats
}

// ruleTally counts one rule's findings per severity and keeps its sample.
type ruleTally struct {
	bySev  [finding.Error + 1]int
	sample []sampled
}

func (t ruleTally) total() int {
	return t.bySev[finding.Info] + t.bySev[finding.Warning] + t.bySev[finding.Error]
}

type fileTally struct{ bySev [finding.Error + 1]int }

// sampled is one kept finding, cleaned for display, with its place in the
// run so the table shows the sample in input order.
type sampled struct {
	seq int
	f   finding.Finding
}

func newHTMLWriter(w io.Writer, o Options) Writer {
	return &htmlWriter{w: w, opts: o, perRule: DefaultHTMLSample, rules: newRuleTable(o.Rules), files: map[string]*fileTally{}}
}

// StatsReceiver is implemented by writers that can show dataset statistics
// beside the findings (the HTML report). A command that measures the data
// hands them over before Close.
type StatsReceiver interface {
	SetStats(*Stats)
}

// SetStats adds the statistics section to the page; nil leaves it out.
func (h *htmlWriter) SetStats(s *Stats) { h.stats = s }

func (h *htmlWriter) Finding(f finding.Finding) error {
	i := h.rules.of(f)
	for len(h.tally) <= i {
		h.tally = append(h.tally, ruleTally{})
	}
	sev := f.Severity
	if sev < finding.Info || sev > finding.Error {
		sev = finding.Error // an invalid severity is still counted, as the worst
	}
	t := &h.tally[i]
	t.bySev[sev]++
	if len(t.sample) < h.perRule {
		t.sample = append(t.sample, sampled{seq: h.seq, f: cleanForPage(f)})
	}
	h.seq++
	ft := h.files[f.File]
	if ft == nil {
		ft = &fileTally{}
		h.files[f.File] = ft
		h.order = append(h.order, f.File)
	}
	ft.bySev[sev]++
	return nil
}

// cleanForPage shortens what a record controls, as the text output does;
// the page escapes it besides (html/template and textContent).
func cleanForPage(f finding.Finding) finding.Finding {
	f.Message = escapeControls(capRunes(shorten(f.Message), maxSampleMessage))
	f.File = escapeControls(f.File)
	f.Path = escapeControls(capRunes(f.Path, maxToken))
	f.Record = escapeControls(capRunes(f.Record, maxToken))
	return f
}

func (h *htmlWriter) Close(s finding.Summary) error {
	return renderHTML(h.w, h.page(s))
}

// samples returns every kept finding in input order.
func (h *htmlWriter) samples() []sampled {
	var out []sampled
	for _, t := range h.tally {
		out = append(out, t.sample...)
	}
	slices.SortFunc(out, func(a, b sampled) int { return cmp.Compare(a.seq, b.seq) })
	return out
}
