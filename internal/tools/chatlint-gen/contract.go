package main

import (
	"io"
	"strconv"
	"time"
)

// Contract records (-format contract): one conversation record per line,
// {"conversation_id", "user_id", "timestamp", "messages": [{"role",
// "content"}], "metadata"}, the input contract of `chatlint validate-input`.
// 1–16 user/assistant exchanges (skewed short); ids are unique, users repeat (one per ~20
// records). A defective record breaks the contract in one of these ways, each
// giving exactly one error in the validator's report:
//
//	schema_validation_failed   user_id is a number, the timestamp is February 30,
//	                           or a message has an extra "name" key (rotating)
//	duplicate_conversation_id  the record reuses the id of the record before it
//	invalid_json               the line is cut short
const (
	defContractSchema    = "schema_validation_failed"
	defContractDuplicate = "duplicate_conversation_id"
	defContractJSON      = "invalid_json"

	streamContract = 4
)

var contractDefects = []string{defContractSchema, defContractDuplicate, defContractJSON}

// contractRecord generates record i (0-based) of a contract file with the
// given defect ("" for none). The line is valid until the next call.
func (g *generator) contractRecord(i uint64, kind string) []byte {
	g.reseed(streamContract, i)
	g.begin()
	g.ascii = g.chance(0.15)
	id := i
	if kind == defContractDuplicate && i > 0 {
		id = i - 1
	}
	variant := g.intn(3)
	b := append(g.out[:0], `{"conversation_id":"conv_`...)
	b = strconv.AppendUint(b, 1_000_000_000+id, 10)
	b = append(b, `","user_id":`...)
	user := strconv.AppendUint(nil, i/20*7919%100_000, 10)
	if kind == defContractSchema && variant == 0 {
		b = append(b, user...)
	} else {
		b = append(b, `"user_`...)
		b = append(b, user...)
		b = append(b, '"')
	}
	b = append(b, `,"timestamp":"`...)
	if kind == defContractSchema && variant == 1 {
		b = append(b, "2026-02-30T09:15:00Z"...)
	} else {
		t := time.UnixMilli(sessionEpoch + int64(i)*37_000).UTC()
		b = t.AppendFormat(b, "2006-01-02T15:04:05Z")
	}
	b = append(b, `","messages":[`...)
	turns := 1 + min(g.intn(16), g.intn(16))
	for t := range turns {
		if t > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"role":"user","content":`...)
		b = g.appendString(b, g.userText())
		if kind == defContractSchema && variant == 2 && t == turns-1 {
			b = append(b, `,"name":"customer"`...)
		}
		b = append(b, `},{"role":"assistant","content":`...)
		b = g.appendString(b, g.assistantText())
		b = append(b, '}')
	}
	b = append(b, `],"metadata":{"source":"`...)
	b = append(b, pick(g, []string{"postgres", "mongodb", "elasticsearch"})...)
	b = append(b, `","tenant":"acme","channel":"webchat"}}`...)
	if kind == defContractJSON {
		b = b[:len(b)/2]
	}
	b = append(b, '\n')
	g.out = b
	return b
}

func writeContract(o *options, stdout io.Writer) (stats, []manifestEntry, error) {
	return writeRecords(o, stdout, contractDefects, func(g *generator, i uint64, kind string) ([]byte, manifestEntry) {
		if kind == defContractDuplicate && i == 0 {
			kind = defContractSchema // record 0 has no predecessor to repeat
		}
		return g.contractRecord(i, kind), manifestEntry{Defect: kind}
	})
}
