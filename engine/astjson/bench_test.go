package astjson

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// chatRecord is one realistic line of an OpenAI chat fine-tuning file: system,
// user, assistant with parallel tool_calls (arguments are JSON inside a
// string, so full of escapes), tool results, non-ASCII text, and a tools
// array with JSON-schema parameters. About 4.5 KB, formatted like Python's
// json.dumps output.
const chatRecord = `{"messages": [{"role": "system", "content": "You are Aria, a travel-booking assistant for Northwind Travel. Be concise and friendly. Always confirm dates, passenger counts and budget before booking anything.\nWhen a tool fails, apologise once and offer an alternative. Prices are in EUR unless the user says otherwise."}, {"role": "user", "content": "Hi! I'd like to fly from Paris to Lisbon on 14 June, returning 21 June, 2 adults. Budget around €400 total. Also, what's the weather going to be like?"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "call_8f3kQ2pLx9", "type": "function", "function": {"name": "search_flights", "arguments": "{\"origin\": \"CDG\", \"destination\": \"LIS\", \"depart_date\": \"2025-06-14\", \"return_date\": \"2025-06-21\", \"passengers\": {\"adults\": 2, \"children\": 0}, \"cabin\": \"economy\", \"max_price\": 400}"}}, {"id": "call_Zr71mNw0Qa", "type": "function", "function": {"name": "get_weather_forecast", "arguments": "{\"city\": \"Lisbon\", \"country\": \"PT\", \"start\": \"2025-06-14\", \"days\": 7, \"units\": \"metric\"}"}}]}, {"role": "tool", "tool_call_id": "call_8f3kQ2pLx9", "content": "{\"results\": [{\"flight\": \"TP433\", \"carrier\": \"TAP Air Portugal\", \"depart\": \"2025-06-14T07:25\", \"arrive\": \"2025-06-14T09:05\", \"price\": 178.4, \"currency\": \"EUR\", \"stops\": 0}, {\"flight\": \"U24613\", \"carrier\": \"easyJet\", \"depart\": \"2025-06-14T11:40\", \"arrive\": \"2025-06-14T13:20\", \"price\": 142, \"currency\": \"EUR\", \"stops\": 0}], \"count\": 2}"}, {"role": "tool", "tool_call_id": "call_Zr71mNw0Qa", "content": "{\"city\": \"Lisbon\", \"daily\": [{\"date\": \"2025-06-14\", \"high\": 27, \"low\": 17, \"summary\": \"Sunny\"}, {\"date\": \"2025-06-15\", \"high\": 26, \"low\": 18, \"summary\": \"Partly cloudy\"}, {\"date\": \"2025-06-16\", \"high\": 24, \"low\": 17, \"summary\": \"Light breeze\"}]}"}, {"role": "assistant", "content": "Great news! I found two direct options for 2 adults (round trip):\n\n1. **easyJet U24613**, departs 11:40, €142 per person → €284 total\n2. **TAP TP433**, departs 07:25, €178.40 per person → €356.80 total\n\nBoth fit your €400 budget. Lisbon looks lovely that week: sunny, highs of 24–27 °C.\n\nShall I hold one of these for you?"}, {"role": "user", "content": "The easyJet one please."}, {"role": "assistant", "content": "Booked! Your confirmation code is **NW-58213**. Have a wonderful trip 🌞", "weight": 1}], "tools": [{"type": "function", "function": {"name": "search_flights", "description": "Search for available flights between two airports on given dates.", "parameters": {"type": "object", "properties": {"origin": {"type": "string", "description": "IATA code of the departure airport, e.g. CDG"}, "destination": {"type": "string", "description": "IATA code of the arrival airport, e.g. LIS"}, "depart_date": {"type": "string", "format": "date", "description": "Outbound date, YYYY-MM-DD"}, "return_date": {"type": "string", "format": "date", "description": "Return date, YYYY-MM-DD; omit for one-way"}, "passengers": {"type": "object", "properties": {"adults": {"type": "integer", "minimum": 1, "maximum": 9}, "children": {"type": "integer", "minimum": 0, "maximum": 8}}, "required": ["adults"]}, "cabin": {"type": "string", "enum": ["economy", "premium_economy", "business", "first"]}, "max_price": {"type": "number", "description": "Maximum total price in EUR"}}, "required": ["origin", "destination", "depart_date", "passengers"], "additionalProperties": false}}}, {"type": "function", "function": {"name": "get_weather_forecast", "description": "Daily weather forecast for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "country": {"type": "string", "description": "ISO 3166-1 alpha-2 code"}, "start": {"type": "string", "format": "date"}, "days": {"type": "integer", "minimum": 1, "maximum": 14}, "units": {"type": "string", "enum": ["metric", "imperial"]}}, "required": ["city"]}}}, {"type": "function", "function": {"name": "book_flight", "description": "Book a flight found by search_flights and return a confirmation code.", "parameters": {"type": "object", "properties": {"flight": {"type": "string"}, "passengers": {"type": "array", "items": {"type": "object", "properties": {"first_name": {"type": "string"}, "last_name": {"type": "string"}, "birth_date": {"type": "string", "format": "date"}}, "required": ["first_name", "last_name"]}}, "hold_only": {"type": "boolean", "default": false}}, "required": ["flight", "passengers"]}}}], "parallel_tool_calls": true}`

func BenchmarkDecode(b *testing.B) {
	data := []byte(chatRecord)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeParallel shows how Decode scales across goroutines, which
// share the intern cache and the decoder pool.
func BenchmarkDecodeParallel(b *testing.B) {
	data := []byte(chatRecord)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := Decode(data); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func BenchmarkReferenceValueFromReader(b *testing.B) {
	data := []byte(chatRecord)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ast.ValueFromReader(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodingJSONAny(b *testing.B) {
	data := []byte(chatRecord)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkASTConstructionFloor rebuilds the containers of chatRecord with
// ast.NewObject and ast.NewArray from ready-made terms: the part of Decode's
// cost that any decoder producing OPA values must pay (OPA hashes every
// element and gives every object a Go map), and so the floor for BenchmarkDecode.
func BenchmarkASTConstructionFloor(b *testing.B) {
	v, err := Decode([]byte(chatRecord))
	if err != nil {
		b.Fatal(err)
	}
	var objects [][][2]*ast.Term
	var arrays [][]*ast.Term
	var walk func(t *ast.Term)
	walk = func(t *ast.Term) {
		switch x := t.Value.(type) {
		case ast.Object:
			var kvs [][2]*ast.Term
			x.Foreach(func(k, v *ast.Term) { walk(v); kvs = append(kvs, [2]*ast.Term{k, v}) })
			objects = append(objects, kvs)
		case *ast.Array:
			var elems []*ast.Term
			x.Foreach(func(e *ast.Term) { walk(e); elems = append(elems, e) })
			arrays = append(arrays, elems)
		}
	}
	walk(ast.NewTerm(v))
	b.SetBytes(int64(len(chatRecord)))
	b.ReportAllocs()
	for b.Loop() {
		for _, kvs := range objects {
			ast.NewObject(kvs...)
		}
		for _, elems := range arrays {
			ast.NewArray(append([]*ast.Term(nil), elems...)...)
		}
	}
}

// BenchmarkSharedData decodes every line of every .jsonl file under
// sharedData: real records, where IDs and message texts do not repeat the
// way they do when one record is decoded over and over.
func BenchmarkSharedData(b *testing.B) {
	files, _ := filepath.Glob(sharedData + "/*/*.jsonl")
	deeper, _ := filepath.Glob(sharedData + "/*/*/*.jsonl")
	var lines [][]byte
	var size int64
	for _, f := range append(files, deeper...) {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			if json.Valid(line) {
				lines = append(lines, line)
				size += int64(len(line))
			}
		}
	}
	if len(lines) == 0 {
		b.Skip("no shared data")
	}
	run := func(name string, decode func([]byte) error) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, line := range lines {
					if err := decode(line); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
	run("Decode", func(l []byte) error { _, err := Decode(l); return err })
	run("ReferenceValueFromReader", func(l []byte) error { _, err := ast.ValueFromReader(bytes.NewReader(l)); return err })
	run("EncodingJSONAny", func(l []byte) error { var v any; return json.Unmarshal(l, &v) })
}
