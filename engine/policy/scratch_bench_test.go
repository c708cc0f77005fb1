package policy

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

func scratchDocs(b *testing.B) []*document.Document {
	f, err := os.Open("/tmp/g300.jsonl")
	if err != nil {
		b.Skip()
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	var docs []*document.Document
	for i := 1; sc.Scan(); i++ {
		v, _ := astjson.Decode(sc.Bytes())
		docs = append(docs, document.NewBuilder(document.Chat, "g", document.Options{}).Add(i, v.(ast.Object)))
	}
	return docs
}

func BenchmarkScratchModules(b *testing.B) {
	docs := scratchDocs(b)
	all, err := LoadFS(os.DirFS("../../policies/integrity"), ".", "integrity")
	if err != nil {
		b.Fatal(err)
	}
	y, _ := LoadFS(os.DirFS("../../rules/integrity"), ".", "integrity")
	for _, name := range []string{"all", "yaml", "blocks.rego", "shapes.rego", "session.rego", "empty"} {
		p := &Pack{Name: "integrity"}
		switch name {
		case "all":
			p.Rego = all.Rego
			p.YAML = y.YAML
		case "yaml":
			p.YAML = y.YAML
		case "empty":
			p.Rego = []File{{Name: "e.rego", Source: []byte("package chatlint.integrity\n")}}
		default:
			for _, f := range all.Rego {
				if strings.HasSuffix(f.Name, name) || strings.HasSuffix(f.Name, "common.rego") {
					p.Rego = append(p.Rego, f)
				}
			}
		}
		e, err := Compile(context.Background(), []*Pack{p}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				e.Evaluate(context.Background(), docs[i%len(docs)])
			}
		})
	}
}
