package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"workrun/workrun"
)

func init() {
	register(&Command{
		Name: "answer",
		Args: "RUN_ID NODE [TEXT] [--values JSON] [--field NAME=VALUE]… [--decline|--cancel-request|--done] [--secret] [--json]",
		Summary: "answer a waiting Ask Human node or a remote's question (text, form values, decline, cancel, sign-in done), " +
			"then continue the run",
		Run: answerCommand,
	})
}

// fieldFlags collects repeated --field NAME=VALUE.
type fieldFlags []string

func (f *fieldFlags) String() string     { return strings.Join(*f, ",") }
func (f *fieldFlags) Set(s string) error { *f = append(*f, s); return nil }

// answerCommand answers node NODE of run RUN_ID. `--json` is the output
// switch of every run command (events as JSON lines); a form's values as
// one JSON object go with `--values` (docs/workflow-format.md "Answering a
// remote's question").
func answerCommand(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("answer", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "")
	values := fs.String("values", "", "")
	var fields fieldFlags
	fs.Var(&fields, "field", "")
	decline := fs.Bool("decline", false, "")
	cancelReq := fs.Bool("cancel-request", false, "")
	done := fs.Bool("done", false, "")
	secret := fs.Bool("secret", false, "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "answer: "+err.Error())
	}
	if len(pos) < 2 {
		return usageError(env, "answer needs RUN_ID NODE and an answer")
	}
	n := 0
	for _, b := range []bool{*decline, *cancelReq, *done} {
		if b {
			n++
		}
	}
	if n > 1 {
		return usageError(env, "answer: --decline, --cancel-request and --done exclude each other")
	}
	d := workrun.Decision{RunID: pos[0], NodeID: pos[1], Approved: true, Text: strings.Join(pos[2:], " "), Secret: *secret}
	switch {
	case *decline:
		d.Action = workrun.AnswerDecline
	case *cancelReq:
		d.Action = workrun.AnswerCancel
	}
	return withEngine(ctx, env, func(svc *Services) int {
		q, err := openQuestionOf(ctx, svc, d.RunID, d.NodeID)
		if err != nil {
			return reportRunError(env, err)
		}
		if q == nil {
			// Ask Human (or a node not waiting: Decide says so).
			if *values != "" || len(fields) > 0 || n > 0 {
				return usageError(env, "answer: --values, --field, --decline, --cancel-request and --done answer a remote's question; node "+d.NodeID+" is not waiting on one")
			}
			if len(pos) < 3 {
				return usageError(env, "answer needs RUN_ID NODE TEXT")
			}
			return decide(ctx, env, d, *asJSON)
		}
		d.Round = q.Round
		if q.Kind == workrun.QuestionForm && d.Action == "" {
			if d.Content, err = formAnswer(env, *q, *values, fields); err != nil {
				return answerRefused(env, err)
			}
			if d.Text != "" {
				return usageError(env, "answer: node "+d.NodeID+" asks for a form: give --values or --field, not TEXT")
			}
		} else if *values != "" || len(fields) > 0 {
			return usageError(env, "answer: --values and --field answer a form; node "+d.NodeID+" does not ask for one")
		}
		if q.Kind == workrun.QuestionSignIn && d.Action == "" && !*done && d.Text == "" {
			return usageError(env, "answer: node "+d.NodeID+" asks you to sign in: sign in at the link `workrun show "+d.RunID+"` prints, then answer --done")
		}
		checked, err := workrun.CheckAnswer(*q, d)
		if err != nil {
			return answerRefused(env, err)
		}
		return decide(ctx, env, checked, *asJSON)
	})
}

// openQuestionOf is the question node waits on in run, or nil.
func openQuestionOf(ctx context.Context, svc *Services, runID, node string) (*workrun.Question, error) {
	recs, err := svc.Runs.NodeRuns(ctx, runID)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		if _, err := svc.Runs.GetRun(ctx, runID); err != nil {
			return nil, err
		}
	}
	i := slices.IndexFunc(recs, func(n workrun.NodeRun) bool { return n.NodeID == node })
	if i < 0 || recs[i].Status != workrun.NodeInterrupted {
		return nil, nil
	}
	return recs[i].Question, nil
}

// formAnswer builds a form answer: the form's defaults, then --values,
// then each --field (typed by the field's kind; "-" reads the value from
// standard input, for a secret that should not be on the command line).
func formAnswer(env *Env, q workrun.Question, values string, fields []string) (json.RawMessage, error) {
	form, err := workrun.ParseForm(q.Schema)
	if err != nil {
		return nil, err
	}
	vals := form.Defaults()
	if values != "" {
		var given map[string]any
		if err := json.Unmarshal([]byte(values), &given); err != nil || given == nil {
			return nil, fmt.Errorf("--values: %w", errNotAnObject)
		}
		for k, v := range given {
			vals[k] = v
		}
	}
	var stdin *bufio.Reader
	for _, kv := range fields {
		name, text, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("--field %q: want NAME=VALUE", kv)
		}
		fd, known := form.Field(name)
		if !known {
			vals[name] = text // the check names the unknown field
			continue
		}
		if text == "-" {
			if stdin == nil {
				stdin = bufio.NewReader(env.Stdin)
			}
			line, err := stdin.ReadString('\n')
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("--field %s=-: read standard input: %w", name, err)
			}
			text = strings.TrimRight(line, "\r\n")
		}
		v, err := fd.Parse(text)
		if err != nil {
			return nil, err
		}
		if v == nil {
			delete(vals, name)
			continue
		}
		vals[name] = v
	}
	return json.Marshal(vals)
}

var errNotAnObject = errors.New("want a JSON object of field values")

// answerRefused prints why an answer does not fit its question, one
// reason a line in the reader's language, and exits 2: nothing was sent.
func answerRefused(env *Env, err error) int {
	lang, lerr := readerLanguage(env, "")
	if lerr != nil {
		lang = "en"
	}
	fmt.Fprintln(env.Stderr, "workrun: "+answerTexts.In(lang, msgAnswerNotSent))
	for _, line := range problemLines(err, lang) {
		fmt.Fprintln(env.Stderr, "  "+termLine(line))
	}
	return ExitUsage
}

// problemLines renders err — one *workrun.TextError or several joined — in lang.
func problemLines(err error, lang string) []string { return workrun.ErrorLines(err, lang) }
