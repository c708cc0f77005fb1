package report

import (
	"cmp"
	"fmt"
	"strconv"
)

// The charts are laid out here and drawn as inline SVG by the template: no
// script library, nothing fetched, and the page shows its charts even with
// scripts off. Geometry is in SVG user units; the SVG scales to its box.

const (
	chartWidth  = 760
	chartLabelW = 250 // room for a label left of the bars
	chartCountW = 70  // room for the count right of the longest bar
	barHeight   = 18
	barGap      = 8
	maxLabel    = 30 // runes of a bar label; the full name is its tooltip
)

// barChart is a horizontal bar chart: one bar per item, longest first,
// each bar split into segments (severities, say).
type barChart struct {
	Width, Height int
	LabelX        int // labels end here (text-anchor: end)
	Bars          []barView
}

type barView struct {
	Label, Title string
	Href         string // "" for no link
	File         string // a file the link filters the table on
	Y, TextY     int
	Segs         []segView
	Count        string
	CountX       int
}

type segView struct {
	X, W  int
	Class string
}

// barItem is one bar before layout: its parts in drawing order.
type barItem struct {
	Label, Href string
	// Title is the full name (the tooltip) when Label is shortened.
	Title string
	File  string
	Parts []barPart
}

type barPart struct {
	N     int
	Class string
}

func (b barItem) total() int {
	n := 0
	for _, p := range b.Parts {
		n += p.N
	}
	return n
}

// layoutBars lays bars out top to bottom, scaled to the largest total, on
// the full chart width.
func layoutBars(items []barItem) barChart {
	return layoutBarsIn(items, chartWidth, chartLabelW, maxLabel)
}

// layoutBarsIn lays bars out in a chart width wide whose labels take
// labelW, cut to maxRunes.
func layoutBarsIn(items []barItem, width, labelW, maxRunes int) barChart {
	c := barChart{Width: width, LabelX: labelW - 10}
	most := 0
	for _, it := range items {
		most = max(most, it.total())
	}
	span := float64(width - labelW - chartCountW)
	for i, it := range items {
		y := barGap + i*(barHeight+barGap)
		b := barView{Label: capRunes(it.Label, maxRunes), Title: cmp.Or(it.Title, it.Label), Href: it.Href, File: it.File, Y: y, TextY: y + barHeight - 4}
		x := labelW
		for _, p := range it.Parts {
			if p.N == 0 {
				continue
			}
			w := int(span*float64(p.N)/float64(most) + 0.5)
			w = max(w, 2) // a count of one stays visible beside a million
			b.Segs = append(b.Segs, segView{X: x, W: w, Class: p.Class})
			x += w
		}
		b.Count = formatCount(it.total())
		b.CountX = x + 6
		c.Bars = append(c.Bars, b)
	}
	c.Height = barGap + len(items)*(barHeight+barGap)
	return c
}

// histogram is a vertical bar chart over a numeric axis, with an optional
// vertical line (the model's token limit).
type histogram struct {
	Width, Height            int
	Left, Right, Top, Bottom int // the plot area
	Bars                     []histBar
	XTicks                   []tick
	YMax                     string
	Limit                    *limitLine
	// LimitOff: the limit lies far above every example; drawing it would
	// squeeze the bars into a corner, so the axis ends at the data.
	LimitOff bool
}

type histBar struct {
	X, Y, W, H int
	Title      string
	Over       bool // the bucket lies above the limit
}

type tick struct {
	X     int
	Label string
}

type limitLine struct {
	X      int
	Label  string
	LabelX int
	Anchor string // text-anchor of the label: start, or end near the right edge
}

const (
	histHeight = 260
	histLeft   = 60
	histRight  = chartWidth - 20
	histTop    = 24
	histBottom = histHeight - 36
)

// layoutHistogram draws buckets (consecutive [Lo, Hi) ranges) on an axis
// from the first Lo to the last Hi, stretched to include the limit when it
// is above them.
func layoutHistogram(buckets []Bucket, limit int) histogram {
	h := histogram{Width: chartWidth, Height: histHeight, Left: histLeft, Right: histRight, Top: histTop, Bottom: histBottom}
	if len(buckets) == 0 {
		return h
	}
	lo, hi := buckets[0].Lo, buckets[len(buckets)-1].Hi
	if limit > hi+(hi-lo)/2 {
		h.LimitOff, limit = true, 0
	} else if limit > hi {
		hi = limit + (limit-lo)/20
	}
	if hi <= lo {
		hi = lo + 1
	}
	most := 0
	for _, b := range buckets {
		most = max(most, b.Count)
	}
	h.YMax = formatCount(most)
	xOf := func(v int) int {
		return histLeft + int(float64(histRight-histLeft)*float64(v-lo)/float64(hi-lo)+0.5)
	}
	for _, b := range buckets {
		x0, x1 := xOf(b.Lo), xOf(b.Hi)
		bh := 0
		if most > 0 {
			bh = int(float64(histBottom-histTop)*float64(b.Count)/float64(most) + 0.5)
		}
		if b.Count > 0 {
			bh = max(bh, 2)
		}
		h.Bars = append(h.Bars, histBar{X: x0 + 1, W: max(x1-x0-2, 1), Y: histBottom - bh, H: bh, Over: limit > 0 && b.Lo >= limit,
			Title: fmt.Sprintf("%s–%s tokens: %s examples", formatCount(b.Lo), formatCount(b.Hi), formatCount(b.Count))})
	}
	step := niceStep((hi - lo) / 5)
	for v := (lo + step - 1) / step * step; v <= hi; v += step {
		h.XTicks = append(h.XTicks, tick{X: xOf(v), Label: formatCount(v)})
	}
	if limit > 0 {
		l := &limitLine{X: xOf(limit), Label: "limit " + formatCount(limit), Anchor: "start"}
		l.LabelX = l.X + 4
		if l.X > histRight-120 {
			l.Anchor, l.LabelX = "end", l.X-4
		}
		h.Limit = l
	}
	return h
}

// niceStep rounds a tick distance up to 1, 2 or 5 times a power of ten,
// so an axis reads 0, 5,000, 10,000 rather than 0, 3,686, 7,372.
func niceStep(d int) int {
	step := 1
	for {
		for _, m := range []int{1, 2, 5} {
			if step*m >= d {
				return step * m
			}
		}
		step *= 10
	}
}

// formatCount writes n with thin grouping: 1234567 → "1,234,567".
func formatCount(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}
