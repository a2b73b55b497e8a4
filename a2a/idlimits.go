package a2a

import "fmt"

// MaxIDBytes bounds every identifier and name an agent sends: task,
// context, message and artifact ids, referenced task ids, artifact names,
// file names and media types of parts. A longer one is refused with
// ErrIDTooLong (and ErrProtocol) when the reply is decoded, so it is never
// stored, shown or sent back on the next request. Real ids are UUIDs or
// short strings; 4 KiB leaves room for any scheme.
const MaxIDBytes = 4 << 10

// ErrIDTooLong: an identifier or name over MaxIDBytes.
var ErrIDTooLong = fmt.Errorf("a2a: identifier longer than %d bytes", MaxIDBytes)

// idTooLong checks named identifiers: pairs of what it is and its value.
func idTooLong(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if n := len(pairs[i+1]); n > MaxIDBytes {
			return fmt.Errorf("%w: %w: the agent sent %s of %d bytes (%q)", ErrProtocol, ErrIDTooLong, pairs[i], n, clip([]byte(pairs[i+1])))
		}
	}
	return nil
}

// checkIDs refuses an event holding an identifier over MaxIDBytes.
func (e *StreamEvent) checkIDs() error {
	switch {
	case e.Task != nil:
		return e.Task.checkIDs()
	case e.Message != nil:
		return e.Message.checkIDs()
	case e.StatusUpdate != nil:
		if err := idTooLong("a task id", e.StatusUpdate.TaskID, "a context id", e.StatusUpdate.ContextID); err != nil {
			return err
		}
		if m := e.StatusUpdate.Status.Message; m != nil {
			return m.checkIDs()
		}
	case e.ArtifactUpdate != nil:
		if err := idTooLong("a task id", e.ArtifactUpdate.TaskID, "a context id", e.ArtifactUpdate.ContextID); err != nil {
			return err
		}
		return e.ArtifactUpdate.Artifact.checkIDs()
	}
	return nil
}

func (t *Task) checkIDs() error {
	if err := idTooLong("a task id", t.ID, "a context id", t.ContextID); err != nil {
		return err
	}
	if m := t.Status.Message; m != nil {
		if err := m.checkIDs(); err != nil {
			return err
		}
	}
	for i := range t.Artifacts {
		if err := t.Artifacts[i].checkIDs(); err != nil {
			return err
		}
	}
	for i := range t.History {
		if err := t.History[i].checkIDs(); err != nil {
			return err
		}
	}
	return nil
}

func (m *Message) checkIDs() error {
	if err := idTooLong("a message id", m.MessageID, "a context id", m.ContextID, "a task id", m.TaskID); err != nil {
		return err
	}
	for _, id := range m.ReferenceTaskIDs {
		if err := idTooLong("a referenced task id", id); err != nil {
			return err
		}
	}
	return checkPartNames(m.Parts)
}

func (a *Artifact) checkIDs() error {
	if err := idTooLong("an artifact id", a.ArtifactID, "an artifact name", a.Name); err != nil {
		return err
	}
	return checkPartNames(a.Parts)
}

func checkPartNames(ps []Part) error {
	for i := range ps {
		if err := idTooLong("a file name", ps[i].Filename, "a media type", ps[i].MediaType); err != nil {
			return err
		}
	}
	return nil
}
