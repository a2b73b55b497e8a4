package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrNewerSchema is returned by Open for a database written by a newer Workrun.
var ErrNewerSchema = errors.New("database created by a newer Workrun")

// migrations are applied in order; migrations[i] brings the schema from
// version i to i+1. Released migrations are never edited, only appended:
// testdata/schema_v1.sql freezes version 1 so the upgrade path stays tested.
var migrations = []string{
	// 1: base tables.
	`CREATE TABLE schema_migrations (
		version    INTEGER PRIMARY KEY,
		applied_at INTEGER NOT NULL
	);
	CREATE TABLE workflows (
		id         TEXT PRIMARY KEY,
		name       TEXT NOT NULL,
		revision   INTEGER NOT NULL,
		updated_at INTEGER NOT NULL
	);
	CREATE TABLE workflow_revisions (
		workflow_id TEXT NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
		revision    INTEGER NOT NULL,
		doc         TEXT NOT NULL,
		created_at  INTEGER NOT NULL,
		PRIMARY KEY (workflow_id, revision)
	);
	CREATE TABLE runs (
		id            TEXT PRIMARY KEY,
		workflow_id   TEXT NOT NULL,
		workflow_name TEXT NOT NULL,
		workflow      TEXT NOT NULL,
		inputs        TEXT NOT NULL,
		state         TEXT NOT NULL,
		status        TEXT NOT NULL,
		interruption  TEXT NOT NULL,
		reason        TEXT NOT NULL,
		failed_node   TEXT NOT NULL,
		created_at    INTEGER NOT NULL,
		ended_at      INTEGER NOT NULL
	);
	CREATE TABLE node_runs (
		run_id     TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
		node_id    TEXT NOT NULL,
		type       TEXT NOT NULL,
		status     TEXT NOT NULL,
		inputs     TEXT NOT NULL,
		outputs    TEXT NOT NULL,
		error      TEXT NOT NULL,
		started_at INTEGER NOT NULL,
		ended_at   INTEGER NOT NULL,
		PRIMARY KEY (run_id, node_id)
	);
	CREATE TABLE messages (
		run_id  TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
		seq     INTEGER NOT NULL,
		node_id TEXT NOT NULL,
		time    INTEGER NOT NULL,
		text    TEXT NOT NULL,
		PRIMARY KEY (run_id, seq)
	);
	CREATE TABLE decisions (
		run_id   TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
		node_id  TEXT NOT NULL,
		approved INTEGER NOT NULL,
		text     TEXT NOT NULL,
		time     INTEGER NOT NULL,
		PRIMARY KEY (run_id, node_id)
	);
	CREATE TABLE remote_calls (
		run_id         TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
		node_id        TEXT NOT NULL,
		call_key       TEXT NOT NULL,
		agent_url      TEXT NOT NULL,
		origin         TEXT NOT NULL,
		message_id     TEXT NOT NULL,
		task_id        TEXT NOT NULL,
		context_id     TEXT NOT NULL,
		remote_state   TEXT NOT NULL,
		status_text    TEXT NOT NULL,
		result         TEXT,
		cancel_outcome TEXT NOT NULL,
		cancel_text    TEXT NOT NULL,
		created_at     INTEGER NOT NULL,
		updated_at     INTEGER NOT NULL,
		ended          INTEGER NOT NULL,
		PRIMARY KEY (run_id, node_id, call_key)
	);
	CREATE TABLE artifacts (
		id          TEXT PRIMARY KEY,
		name        TEXT NOT NULL,
		original    TEXT NOT NULL,
		stored_name TEXT NOT NULL,
		media_type  TEXT NOT NULL,
		size        INTEGER NOT NULL,
		sha256      TEXT NOT NULL,
		run_id      TEXT NOT NULL,
		node_id     TEXT NOT NULL,
		created_at  INTEGER NOT NULL
	);`,

	// 2: indexes for the start-up and list queries (docs/remote-agent.md R13: start-up finds
	// running runs through runs_status, never by walking history) and the
	// credential metadata table (docs/product.md W8: the secret itself is never stored here).
	`CREATE INDEX runs_status ON runs(status, created_at, id);
	CREATE INDEX runs_created ON runs(created_at, id);
	CREATE INDEX runs_workflow_created ON runs(workflow_id, created_at, id);
	CREATE INDEX artifacts_run ON artifacts(run_id);
	CREATE INDEX artifacts_sha256 ON artifacts(sha256);
	CREATE TABLE credentials (
		name       TEXT PRIMARY KEY,
		kind       TEXT NOT NULL,
		origin     TEXT NOT NULL,
		header     TEXT NOT NULL,
		created_at INTEGER NOT NULL,
		updated_at INTEGER NOT NULL
	);`,

	// 3: the branch a condition node picked, so that resume does not run a
	// finished condition again; and the owner of each run (the lock id of the
	// store that saved it last), so that start-up marks interrupted only runs
	// whose process has ended (docs/remote-agent.md R13; see owner.go). Rows from before keep ''.
	`ALTER TABLE node_runs ADD COLUMN branch TEXT NOT NULL DEFAULT '';
	ALTER TABLE runs ADD COLUMN owner TEXT NOT NULL DEFAULT '';`,

	// 4: node messages as a catalogue key plus arguments (a JSON array of
	// strings), rendered when shown in the reader's language, and the count
	// of progress lines coalesced into a line. Rows from before keep their
	// text, key '' and args '', and render as they were saved.
	`ALTER TABLE messages ADD COLUMN key TEXT NOT NULL DEFAULT '';
	ALTER TABLE messages ADD COLUMN args TEXT NOT NULL DEFAULT '';
	ALTER TABLE messages ADD COLUMN repeat INTEGER NOT NULL DEFAULT 0;`,

	// 5: failure handling and runs from a node (docs/engine.md): the
	// attempt a node record is of and why the one before it failed, the
	// saved instant of its deadline, and the run a node's (or a run's)
	// outputs were pinned from. Rows from before keep 0 / '': attempt 1,
	// no deadline, not pinned.
	`ALTER TABLE node_runs ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE node_runs ADD COLUMN last_error TEXT NOT NULL DEFAULT '';
	ALTER TABLE node_runs ADD COLUMN deadline_at INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE node_runs ADD COLUMN pinned_from TEXT NOT NULL DEFAULT '';
	ALTER TABLE runs ADD COLUMN pinned_from TEXT NOT NULL DEFAULT '';`,

	// 6: remote questions (docs/engine.md "Remote questions"): the question
	// a node waits on (JSON, '' for none), and an answer's round, action,
	// form values (JSON, '' for none) and whether its secret values were
	// withheld (never saved). Rows from before keep round 0: Human Review
	// and Ask Human decisions.
	`ALTER TABLE node_runs ADD COLUMN question TEXT NOT NULL DEFAULT '';
	ALTER TABLE decisions ADD COLUMN round INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE decisions ADD COLUMN action TEXT NOT NULL DEFAULT '';
	ALTER TABLE decisions ADD COLUMN content TEXT NOT NULL DEFAULT '';
	ALTER TABLE decisions ADD COLUMN secret INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE decisions ADD COLUMN withheld INTEGER NOT NULL DEFAULT 0;`,
	// served: tasks of served workflows (one per caller and idempotency
	// key, written with their run) and callers' token hashes (docs/serve.md).
	`CREATE TABLE served_tasks (
		id          TEXT PRIMARY KEY,
		caller      TEXT NOT NULL,
		idem_key    TEXT NOT NULL,
		publication TEXT NOT NULL,
		context_id  TEXT NOT NULL,
		run_id      TEXT NOT NULL UNIQUE,
		message     BLOB,
		created_at  INTEGER NOT NULL
	);
	CREATE UNIQUE INDEX served_tasks_key ON served_tasks(caller, idem_key);
	CREATE INDEX served_tasks_caller ON served_tasks(caller, created_at);
	CREATE TABLE serve_tokens (
		label      TEXT PRIMARY KEY,
		hash       TEXT NOT NULL UNIQUE,
		created_at INTEGER NOT NULL
	);`,

	// started by: who or what started a run (workrun.StartedBy) — its
	// kind and label (a serve token's label, never its secret; a trigger's
	// name). Rows from before keep '' '': not recorded.
	`ALTER TABLE runs ADD COLUMN started_by TEXT NOT NULL DEFAULT '';
	ALTER TABLE runs ADD COLUMN started_by_label TEXT NOT NULL DEFAULT '';`,

	// triggers (docs/triggers.md): one row per schedule fire, written
	// before its run starts (the primary key refuses a second fire of the
	// same time), and the webhook signatures seen (a replay is refused).
	`CREATE TABLE trigger_fires (
		workflow   TEXT NOT NULL,
		trigger    INTEGER NOT NULL,
		fire_at    INTEGER NOT NULL,
		state      TEXT NOT NULL,
		task_id    TEXT NOT NULL,
		updated_at INTEGER NOT NULL,
		PRIMARY KEY (workflow, trigger, fire_at)
	);
	CREATE INDEX trigger_fires_state ON trigger_fires(workflow, state, fire_at);
	CREATE TABLE webhook_signatures (
		workflow  TEXT NOT NULL,
		signature TEXT NOT NULL,
		seen_at   INTEGER NOT NULL,
		PRIMARY KEY (workflow, signature)
	);
	CREATE INDEX webhook_signatures_seen ON webhook_signatures(seen_at);`,

	// stop requests (docs/engine.md "Stop across processes"): a Stop of a
	// run another live process executes, addressed to that process (the
	// run's owner when asked), which polls for its own by the index.
	`CREATE TABLE stop_requests (
		run_id       TEXT PRIMARY KEY,
		owner        TEXT NOT NULL,
		requested_by INTEGER NOT NULL,
		requested_at INTEGER NOT NULL
	);
	CREATE INDEX stop_requests_owner ON stop_requests(owner);`,

	// agent name: the card name a Remote Agent call saw (workrun.RemoteCall
	// AgentName), shown instead of the URL. Rows from before keep '': the
	// window shows their URL as before.
	`ALTER TABLE remote_calls ADD COLUMN agent_name TEXT NOT NULL DEFAULT '';`,
}

// schemaVersion is the schema version this build writes.
var schemaVersion = len(migrations)

// migrate brings the database to schemaVersion, one transaction per
// migration, or refuses a newer one. The version lives in PRAGMA user_version
// (one header read, so Open costs the same for any history size) and each
// applied step is also recorded in schema_migrations.
func migrate(ctx context.Context, db *sql.DB, path string, now func() int64) error {
	var v int
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		return fmt.Errorf("read schema version of %s: %w", path, err)
	}
	if v > len(migrations) {
		return fmt.Errorf("open %s: %w (schema %d > %d); use a newer Workrun",
			path, ErrNewerSchema, v, len(migrations))
	}
	for i := v; i < len(migrations); i++ {
		if err := applyMigration(ctx, db, i, now()); err != nil {
			return fmt.Errorf("migrate %s to schema %d: %w", path, i+1, err)
		}
	}
	return nil
}

func applyMigration(ctx context.Context, db *sql.DB, i int, at int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Re-check inside the write transaction: another process may have
	// migrated between our read and our BEGIN IMMEDIATE.
	var v int
	if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		return err
	}
	if v != i {
		return tx.Commit()
	}
	if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`, i+1, at); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, i+1)); err != nil {
		return err
	}
	return tx.Commit()
}
