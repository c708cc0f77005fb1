package main

import (
	"strconv"
)

func (g *generator) appendWord(b []byte) []byte {
	// One draw per word: the low bits pick the variant, the high bits the
	// word (the modulo bias is irrelevant here).
	u := g.r.Uint64()
	x, w := u%1000, words[(u>>32)%uint64(len(words))]
	switch {
	case x < 3:
		return append(b, rareWords[(u>>32)%uint64(len(rareWords))]...)
	case x < 12:
		b = append(b, '`')
		b = append(b, w...)
		return append(b, "()`"...)
	case x < 18:
		b = append(b, '"')
		b = append(b, w...)
		return append(b, '"')
	case x < 22:
		return strconv.AppendUint(b, (u>>32)%5000, 10)
	}
	return append(b, w...)
}

// appendSentence appends one sentence of minW..maxW words.
func (g *generator) appendSentence(b []byte, minW, maxW int, question bool) []byte {
	n := g.between(minW, maxW)
	start := len(b)
	for i := range n {
		if i > 0 {
			if i > 2 && i < n-2 && g.r.IntN(10) == 0 {
				b = append(b, ',')
			}
			b = append(b, ' ')
		}
		b = g.appendWord(b)
	}
	if c := b[start]; c >= 'a' && c <= 'z' {
		b[start] = c - ('a' - 'A')
	}
	switch {
	case question:
		return append(b, '?')
	case g.r.IntN(25) == 0:
		return append(b, '!')
	}
	return append(b, '.')
}

func (g *generator) appendSentences(b []byte, minS, maxS int) []byte {
	n := g.between(minS, maxS)
	for i := range n {
		if i > 0 {
			b = append(b, ' ')
		}
		b = g.appendSentence(b, 3, 13, false)
	}
	return b
}

func (g *generator) appendPath(b []byte) []byte {
	b = append(b, pick(g, fileDirs)...)
	b = append(b, '/')
	b = append(b, pick(g, sqlTables)...)
	b = append(b, '_')
	b = append(b, pick(g, sqlColumns)...)
	return append(b, pick(g, fileExts)...)
}

func (g *generator) appendCodeBlock(b []byte) []byte {
	b = append(b, "\n\n```\n"...)
	b = append(b, pick(g, codeSnippets)...)
	return append(b, "\n```\n"...)
}

// text finishes a piece of arena text started at start and returns it.
func (g *generator) text(start int) []byte { return g.arena[start:len(g.arena):len(g.arena)] }

func (g *generator) systemText() []byte {
	s := len(g.arena)
	if g.chance(0.75) {
		g.arena = append(g.arena, pick(g, systemPrompts)...)
	} else {
		g.arena = append(g.arena, "You are an assistant that helps with "...)
		g.arena = append(g.arena, pick(g, words)...)
		g.arena = append(g.arena, " and "...)
		g.arena = append(g.arena, pick(g, words)...)
		g.arena = append(g.arena, ". "...)
		g.arena = g.appendSentences(g.arena, 1, 3)
	}
	return g.text(s)
}

func (g *generator) userText() []byte {
	s := len(g.arena)
	n := g.between(1, 2)
	if g.chance(0.2) {
		n = 3
	}
	for i := range n {
		if i > 0 {
			g.arena = append(g.arena, ' ')
		}
		g.arena = g.appendSentence(g.arena, 3, 13, i == n-1 && g.chance(0.6))
	}
	switch x := g.intn(100); {
	case x < 4:
		g.arena = g.appendCodeBlock(g.arena)
	case x < 8:
		g.arena = append(g.arena, " The file is "...)
		g.arena = g.appendPath(g.arena)
		g.arena = append(g.arena, '.')
	}
	return g.text(s)
}

func (g *generator) assistantText() []byte {
	s := len(g.arena)
	g.arena = g.appendSentences(g.arena, 1, 3)
	switch x := g.intn(100); {
	case x < 12:
		g.arena = append(g.arena, "\n\n"...)
		for i := range g.between(2, 5) {
			if i > 0 {
				g.arena = append(g.arena, '\n')
			}
			g.arena = append(g.arena, "- "...)
			g.arena = g.appendSentence(g.arena, 3, 9, false)
		}
	case x < 20:
		g.arena = g.appendCodeBlock(g.arena)
		g.arena = g.appendSentence(g.arena, 4, 12, false)
	case x < 24:
		g.arena = append(g.arena, "\n\n"...)
		for i := range g.between(2, 4) {
			if i > 0 {
				g.arena = append(g.arena, '\n')
			}
			g.arena = strconv.AppendInt(g.arena, int64(i+1), 10)
			g.arena = append(g.arena, ". "...)
			g.arena = g.appendSentence(g.arena, 3, 9, false)
		}
	}
	return g.text(s)
}

func (g *generator) callID() []byte {
	s := len(g.arena)
	g.arena = append(g.arena, "call_"...)
	g.arena = g.appendAlnum(g.arena, 24)
	return g.text(s)
}
