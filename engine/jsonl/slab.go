package jsonl

import "bytes"

// Slab copies records a Reader will reuse into shared chunks, so that many
// small records cost one allocation instead of one each (Record.Clone): a
// caller that keeps every record for a while (the runner, until a worker has
// checked it) copies them here. A record larger than a chunk's share gets an
// allocation of its own. Chunks are never reused: a record copied here stays
// valid for as long as it is referenced, and the garbage collector frees a
// chunk once none of its records is.
//
// Held says how many bytes the copies keep alive, chunks counted whole, so a
// caller bounding its memory can charge them; Reset starts a new chunk, for
// a caller that charges each group of records separately.
type Slab struct {
	chunk []byte // the current chunk: copies so far, capacity the rest
	size  int    // the size of the next chunk
	held  int64
}

// Slab sizes: a chunk between MinSlabChunk and MaxSlabChunk (SetChunk); a
// record larger than an eighth of the chunk is copied on its own, so a chunk
// wastes at most that at its end.
const (
	MinSlabChunk = 16 << 10
	MaxSlabChunk = 1 << 20
)

// SetChunk sets the size of the chunks made from now on: about what the
// records copied before the next Reset will take, at most MaxSlabChunk.
// Under MinSlabChunk (and until it is set) there is no chunk: each record
// is copied on its own, as Clone does, rather than one small record keeping
// a chunk alive.
func (s *Slab) SetChunk(n int) {
	s.size = min(n, MaxSlabChunk)
	if n < MinSlabChunk {
		s.size = 0
	}
}

// Copy returns r with its bytes (Raw, and Data within it) copied into the
// slab. The copy's slices are capped at their length: appending to one
// allocates rather than writing over the next record.
func (s *Slab) Copy(r Record) Record {
	if len(r.Raw) < len(r.Data) { // built by hand, without Raw
		r.Data = s.bytes(r.Data)
		return r
	}
	start := 0
	if bytes.HasPrefix(r.Raw, bom) && !bytes.HasPrefix(r.Data, bom) {
		start = len(bom) // Data is Raw less a leading byte-order mark
	}
	r.Raw = s.bytes(r.Raw)
	r.Data = r.Raw[start : start+len(r.Data) : start+len(r.Data)]
	return r
}

// bytes copies b into the current chunk, or a new one, or on its own.
func (s *Slab) bytes(b []byte) []byte {
	if len(b) > s.size/8 { // no chunk (size 0), or too large a share of it
		s.held += int64(len(b))
		return bytes.Clone(b)[:len(b):len(b)]
	}
	if cap(s.chunk)-len(s.chunk) < len(b) {
		s.chunk = make([]byte, 0, s.size)
		s.held += int64(s.size)
	}
	at := len(s.chunk)
	s.chunk = append(s.chunk, b...)
	return s.chunk[at:len(s.chunk):len(s.chunk)]
}

// Held returns the bytes the copies made since the last Reset keep alive:
// the chunks they started, whole, and the records copied on their own.
func (s *Slab) Held() int64 { return s.held }

// Reset starts a new chunk for the next copy and Held from zero: the
// records copied so far keep their chunks alive, and no later record
// shares them.
func (s *Slab) Reset() { s.chunk, s.held = nil, 0 }
