package main

import (
	"strconv"
	"strings"
	"time"
)

// appendArgValue appends one JSON value for parameter p.
func (g *generator) appendArgValue(b []byte, p *param) []byte {
	var tmp [256]byte
	t := tmp[:0]
	switch p.kind {
	case argInt:
		return strconv.AppendInt(b, int64(g.between(1, 100)), 10)
	case argBool:
		return strconv.AppendBool(b, g.chance(0.5))
	case argEnum:
		return g.appendString(b, []byte(pick(g, p.enum)))
	case argStrList, argNameList:
		b = append(b, '[')
		for i := range g.between(1, 3) {
			if i > 0 {
				b = append(b, ',')
			}
			t = t[:0]
			if p.kind == argNameList {
				t = append(t, pick(g, firstNames)...)
				t = append(t, ' ')
				t = append(t, pick(g, lastNames)...)
			} else {
				t = append(t, pick(g, words)...)
			}
			b = g.appendString(b, t)
		}
		return append(b, ']')
	case argText:
		t = g.appendSentence(t, 3, 12, false)
	case argQuery:
		for i := range g.between(2, 6) {
			if i > 0 {
				t = append(t, ' ')
			}
			t = g.appendWord(t)
		}
	case argPath:
		t = g.appendPath(t)
	case argCode:
		return g.appendString(b, []byte(pick(g, codeSnippets)))
	case argCommand:
		cmd := pick(g, shellCommands)
		if i := strings.Index(cmd, "%s"); i >= 0 {
			t = append(t, cmd[:i]...)
			if g.chance(0.5) {
				t = g.appendPath(t)
			} else {
				t = append(t, pick(g, words)...)
			}
			t = append(t, cmd[i+2:]...)
		} else {
			t = append(t, cmd...)
		}
	case argSQL:
		t = append(t, "SELECT "...)
		t = append(t, pick(g, sqlColumns)...)
		t = append(t, ", "...)
		t = append(t, pick(g, sqlColumns)...)
		t = append(t, " FROM "...)
		t = append(t, pick(g, sqlTables)...)
		t = append(t, " WHERE status = '"...)
		t = append(t, pick(g, words)...)
		t = append(t, "' LIMIT "...)
		t = strconv.AppendInt(t, int64(g.between(5, 200)), 10)
	case argURL:
		t = append(t, "https://internal.example.com/api/v1/"...)
		t = append(t, pick(g, sqlTables)...)
		t = append(t, '/')
		t = g.appendDigits(t, 6)
	case argTime:
		ms := sessionEpoch + int64(g.intn(90*24))*3600_000 + int64(g.intn(4))*900_000
		t = time.UnixMilli(ms).UTC().AppendFormat(t, time.RFC3339)
	case argID:
		if g.chance(0.5) {
			t = append(t, "ORD-"...)
			t = g.appendDigits(t, 6)
		} else {
			t = append(t, "usr_"...)
			t = g.appendAlnum(t, 10)
		}
	case argCity:
		t = append(t, pick(g, cities)...)
	}
	return g.appendString(b, t)
}

// args returns the arguments object for a call of d, as JSON text.
func (g *generator) args(d *toolDef) []byte {
	s := len(g.arena)
	g.arena = append(g.arena, '{')
	first := true
	for i := range d.params {
		p := &d.params[i]
		if !p.required && g.chance(0.5) {
			continue
		}
		if !first {
			g.arena = append(g.arena, ',')
		}
		first = false
		g.arena = append(g.arena, '"')
		g.arena = append(g.arena, p.name...)
		g.arena = append(g.arena, `":`...)
		g.arena = g.appendArgValue(g.arena, p)
	}
	g.arena = append(g.arena, '}')
	return g.text(s)
}

// toolResult returns the content of a result of a call to d: plain text or a
// JSON object, 20 bytes to about 4 KB.
func (g *generator) toolResult(d *toolDef) []byte {
	s := len(g.arena)
	target := g.logUniform(20, 600)
	if g.chance(0.15) {
		target = g.logUniform(400, 4000)
	}
	switch {
	case d.name == "run_shell":
		g.shellOutput(s, target)
	case d.name == "read_file":
		g.fileListing(s, target)
	case g.chance(0.6):
		g.jsonResult(s, target)
	default:
		for len(g.arena)-s < target {
			if len(g.arena) > s {
				g.arena = append(g.arena, ' ')
			}
			g.arena = g.appendSentence(g.arena, 4, 16, false)
		}
	}
	return g.text(s)
}

func (g *generator) shellOutput(s, target int) {
	color := g.chance(0.05)
	for len(g.arena)-s < target {
		switch g.intn(3) {
		case 0:
			g.arena = g.appendPath(g.arena)
			g.arena = append(g.arena, ':')
			g.arena = strconv.AppendInt(g.arena, int64(g.between(1, 900)), 10)
			g.arena = append(g.arena, ": "...)
			g.arena = g.appendSentence(g.arena, 3, 8, false)
		case 1:
			if color {
				g.arena = append(g.arena, "\x1b[32mok\x1b[0m\t"...)
			} else {
				g.arena = append(g.arena, "ok\t"...)
			}
			g.arena = append(g.arena, "github.com/acme/"...)
			g.arena = append(g.arena, pick(g, sqlTables)...)
			g.arena = append(g.arena, '\t')
			g.arena = strconv.AppendFloat(g.arena, float64(g.between(1, 9999))/1000, 'f', 3, 64)
			g.arena = append(g.arena, 's')
		default:
			g.arena = append(g.arena, "-rw-r--r--  1 dev  staff  "...)
			g.arena = strconv.AppendInt(g.arena, int64(g.between(10, 99999)), 10)
			g.arena = append(g.arena, ' ')
			g.arena = g.appendPath(g.arena)
		}
		g.arena = append(g.arena, '\n')
	}
}

// fileListing appends numbered source lines, like `cat -n`.
func (g *generator) fileListing(s, target int) {
	line := g.between(1, 400)
	for len(g.arena)-s < target {
		snippet := pick(g, codeSnippets)
		for snippet != "" {
			l, rest, _ := strings.Cut(snippet, "\n")
			snippet = rest
			for w := 100000; w > line; w /= 10 {
				g.arena = append(g.arena, ' ')
			}
			g.arena = strconv.AppendInt(g.arena, int64(line), 10)
			g.arena = append(g.arena, '\t')
			g.arena = append(g.arena, l...)
			g.arena = append(g.arena, '\n')
			line++
		}
	}
}

func (g *generator) jsonResult(s, target int) {
	if target < 40 {
		g.arena = append(g.arena, `{"status":"ok","count":`...)
		g.arena = strconv.AppendInt(g.arena, int64(g.intn(50)), 10)
		g.arena = append(g.arena, '}')
		return
	}
	g.arena = append(g.arena, `{"status":"ok","items":[`...)
	var tmp [512]byte
	for i := 0; len(g.arena)-s < target-30; i++ {
		if i > 0 {
			g.arena = append(g.arena, ',')
		}
		g.arena = append(g.arena, `{"id":"`...)
		g.arena = g.appendAlnum(g.arena, 12)
		g.arena = append(g.arena, `","title":`...)
		g.arena = g.appendString(g.arena, g.appendSentence(tmp[:0], 2, 6, false))
		g.arena = append(g.arena, `,"score":`...)
		g.arena = strconv.AppendFloat(g.arena, float64(g.intn(1000))/1000, 'f', -1, 64)
		if g.chance(0.6) {
			g.arena = append(g.arena, `,"snippet":`...)
			g.arena = g.appendString(g.arena, g.appendSentence(tmp[:0], 6, 20, false))
		}
		g.arena = append(g.arena, '}')
	}
	g.arena = append(g.arena, `],"next_page":`...)
	if g.chance(0.7) {
		g.arena = append(g.arena, "null"...)
	} else {
		g.arena = strconv.AppendInt(g.arena, int64(g.between(2, 9)), 10)
	}
	g.arena = append(g.arena, '}')
}
