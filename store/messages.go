package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"workrun/workrun"
)

// maxFieldBytes bounds each stored text and argument of a message. The
// engine cuts a node's message far below this; the store cuts what still
// exceeds it, so no caller can write a 60 MB row.
const maxFieldBytes = 64 << 10

// AppendMessage commits the line and returns it with Seq set; Time is set to
// now when zero. Progress lines batched before it are committed first, so a
// run's lines keep their order. Lines appended concurrently share a commit
// (see write) and each call still returns only after its own line is
// committed.
func (s *Store) AppendMessage(ctx context.Context, m workrun.Message) (workrun.Message, error) {
	if m.Time.IsZero() {
		m.Time = s.now()
	}
	m = capMessage(m)
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		m, err = s.insertLine(ctx, tx, m)
		return err
	})
	if err != nil {
		return workrun.Message{}, fmt.Errorf("append message %s/%s: %w", m.RunID, m.NodeID, err)
	}
	return m, nil
}

const maxSeqSQL = `SELECT MAX(seq) FROM messages WHERE run_id=?`

const insertMessage = `INSERT INTO messages (run_id, seq, node_id, time, text, key, args, repeat) VALUES (?,?,?,?,?,?,?,?)`

// insertLine numbers m after the highest seq of its run and inserts it.
// Only the single writer connection runs it, so the numbering cannot race.
func (s *Store) insertLine(ctx context.Context, tx *sql.Tx, m workrun.Message) (workrun.Message, error) {
	var max sql.NullInt64
	if err := s.queryRowTx(ctx, tx, maxSeqSQL, m.RunID).Scan(&max); err != nil {
		return m, err
	}
	m.Seq = max.Int64 + 1
	text, key, args, err := lineColumns(m)
	if err != nil {
		return m, err
	}
	_, err = s.execTx(ctx, tx, insertMessage, m.RunID, m.Seq, m.NodeID, unixNano(m.Time), text, key, args, m.Repeat)
	return m, err
}

// insertChunk is how many lines one INSERT statement of insertLines
// carries: one statement per line costs more in the driver than SQLite
// spends on the row.
const insertChunk = 64

// insertLines inserts a batch of lines, reading each run's highest seq
// once and inserting up to insertChunk rows per statement; each line's Seq
// is set in lines.
func (s *Store) insertLines(ctx context.Context, tx *sql.Tx, lines []workrun.Message) error {
	next := map[string]int64{}
	var full *sql.Stmt // the statement for a whole chunk, prepared once
	defer func() {
		if full != nil {
			full.Close()
		}
	}()
	args := make([]any, 0, insertChunk*8)
	for len(lines) > 0 {
		chunk := lines[:min(len(lines), insertChunk)]
		lines = lines[len(chunk):]
		args = args[:0]
		for i := range chunk {
			m := &chunk[i]
			seq, ok := next[m.RunID]
			if !ok {
				var max sql.NullInt64
				if err := s.queryRowTx(ctx, tx, maxSeqSQL, m.RunID).Scan(&max); err != nil {
					return err
				}
				seq = max.Int64
			}
			seq++
			next[m.RunID] = seq
			m.Seq = seq
			text, key, jargs, err := lineColumns(*m)
			if err != nil {
				return err
			}
			args = append(args, m.RunID, seq, m.NodeID, unixNano(m.Time), text, key, jargs, m.Repeat)
		}
		if len(chunk) == 1 {
			if _, err := s.execTx(ctx, tx, insertMessage, args...); err != nil {
				return err
			}
			continue
		}
		if len(chunk) < insertChunk {
			if _, err := tx.ExecContext(ctx, insertRows(len(chunk)), args...); err != nil {
				return err
			}
			continue
		}
		if full == nil {
			var err error
			if full, err = tx.PrepareContext(ctx, insertRows(insertChunk)); err != nil {
				return err
			}
		}
		if _, err := full.ExecContext(ctx, args...); err != nil {
			return err
		}
	}
	return nil
}

// insertRows is insertMessage for n rows.
func insertRows(n int) string {
	var b strings.Builder
	b.WriteString(insertMessage)
	for range n - 1 {
		b.WriteString(",(?,?,?,?,?,?,?,?)")
	}
	return b.String()
}

// lineColumns gives the text, key and args columns of m. A line with a key
// or arguments is stored as those alone (args a JSON array of strings) and
// rendered when read, in the reader's language; its Text, a rendering, is
// not stored twice. Only a line with neither keeps its Text, as lines from
// before schema 4 did.
func lineColumns(m workrun.Message) (text, key, args string, err error) {
	if m.Key == "" && m.Args == nil {
		return m.Text, "", "", nil
	}
	b, err := json.Marshal(m.Args)
	if err != nil {
		return "", "", "", err
	}
	if m.Args == nil {
		b = nil
	}
	return "", m.Key, string(b), nil
}

// capMessage cuts each text and argument of m to maxFieldBytes, with a
// marker saying how much was cut.
func capMessage(m workrun.Message) workrun.Message {
	m.Text = cutField(m.Text)
	copied := false
	for i, a := range m.Args {
		if len(a) > maxFieldBytes {
			if !copied { // never write into the caller's slice
				m.Args, copied = append([]string(nil), m.Args...), true
			}
			m.Args[i] = cutField(a)
		}
	}
	return m
}

func cutField(s string) string {
	if len(s) <= maxFieldBytes {
		return s
	}
	n := maxFieldBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s …[%d more bytes cut]", s[:n], len(s)-n)
}

// Messages returns a run's committed lines in seq order. Batched progress
// lines not yet committed are not included. A line stored with a key comes
// back with Key and Args, and Text set to its rendering in the current
// workrun.Language (for readers that do not render keys); render it with
// Message.In. A line from before keys comes back with the Text it was
// saved with.
func (s *Store) Messages(ctx context.Context, runID string) ([]workrun.Message, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT run_id, seq, node_id, time, text, key, args, repeat FROM messages
		WHERE run_id=? ORDER BY seq`, runID)
	if err != nil {
		return nil, fmt.Errorf("messages %s: %w", runID, err)
	}
	defer rows.Close()
	var out []workrun.Message
	lang := workrun.Language()
	for rows.Next() {
		var m workrun.Message
		var t int64
		var args string
		if err := rows.Scan(&m.RunID, &m.Seq, &m.NodeID, &t, &m.Text, &m.Key, &args, &m.Repeat); err != nil {
			return nil, fmt.Errorf("messages %s: %w", runID, err)
		}
		m.Time = fromNano(t)
		if args != "" {
			if err := json.Unmarshal([]byte(args), &m.Args); err != nil {
				return nil, fmt.Errorf("messages %s: line %d: arguments: %w", runID, m.Seq, err)
			}
		}
		if m.Key != "" || m.Args != nil {
			m.Text = workrun.Message{Key: m.Key, Args: m.Args}.In(lang)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("messages %s: %w", runID, err)
	}
	return out, nil
}
