package pipeline

import (
	"bufio"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// writeLines writes the strings of col, one per line, to shards files named
// by ShardName. Every shard file is written, empty when it has no line, so
// that a clean dataset still gives an (empty) findings file.
func writeLines(s beam.Scope, path string, shards int, col beam.PCollection) {
	s = s.Scope("WriteLines")
	keyed := beam.ParDo(s, &ShardFn{Shards: shards}, col)
	// One empty line per shard makes the group of every shard exist; the
	// writer drops empty lines, which no finding or summary is.
	ids := make([]int, shards)
	for i := range ids {
		ids[i] = i
	}
	markers := beam.ParDo(s, markShard, beam.CreateList(s, ids))
	grouped := beam.GroupByKey(s, beam.Flatten(s, keyed, markers))
	beam.ParDo0(s, &WriteFn{Path: path, Shards: shards}, grouped)
}

// validScheme reports a path whose scheme (gs://, …) no filesystem is
// registered for; Beam's own check panics.
func validScheme(path string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: %v", path, r)
		}
	}()
	filesystem.ValidateScheme(path)
	return nil
}

// ShardName is the file of one shard: path itself when there is one shard,
// else path-SSSSS-of-NNNNN as Beam's other SDKs name them.
func ShardName(path string, shard, shards int) string {
	if shards <= 1 {
		return path
	}
	return fmt.Sprintf("%s-%05d-of-%05d", path, shard, shards)
}

// ShardFn spreads lines over the shards by a hash of their text, so a retry
// sends a line to the same shard.
type ShardFn struct {
	Shards int
}

// ProcessElement keys one line by its shard.
func (fn *ShardFn) ProcessElement(line string) (int, string) {
	if fn.Shards <= 1 {
		return 0, line
	}
	h := fnv.New32a()
	io.WriteString(h, line)
	return int(h.Sum32() % uint32(fn.Shards)), line
}

func markShard(shard int) (int, string) { return shard, "" }

// WriteFn writes one shard. It writes to a temporary name and renames it
// into place when the filesystem can, so a reader never sees half a file
// and a retried bundle simply writes the shard again.
type WriteFn struct {
	Path   string
	Shards int
}

// ProcessElement writes the lines of one shard.
func (fn *WriteFn) ProcessElement(ctx context.Context, shard int, lines func(*string) bool) (err error) {
	name := ShardName(fn.Path, shard, fn.Shards)
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	renamer, canRename := fs.(filesystem.Renamer)
	tmp := name
	if canRename {
		tmp = fmt.Sprintf("%s.tmp-%08x", name, rand.Uint32())
	}
	fd, err := fs.OpenWrite(ctx, tmp)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil && canRename {
			if rm, ok := fs.(filesystem.Remover); ok {
				rm.Remove(ctx, tmp)
			}
		}
	}()
	w := bufio.NewWriterSize(fd, 1<<20)
	var line string
	for lines(&line) {
		if line == "" { // the shard's marker
			continue
		}
		// An element is one line, or (fixed records) lines that end with
		// their own line endings.
		_, err := w.WriteString(line)
		if err == nil && !strings.HasSuffix(line, "\n") {
			err = w.WriteByte('\n')
		}
		if err != nil {
			fd.Close()
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	if err := w.Flush(); err != nil {
		fd.Close()
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := fd.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if canRename {
		return renamer.Rename(ctx, tmp, name)
	}
	return nil
}
