package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"workrun/serve"
	"workrun/serve/trigger"
	"workrun/workrun"
)

// Schedules and webhooks under `workrun serve` (docs/triggers.md). The
// serve command mounts the webhooks next to the A2A front, prints a
// `webhook URL` line per webhook before `ready`, and runs the scheduler
// from ready until it stops.

type triggerMsg string

const (
	msgTrigSchedules    triggerMsg = "cli.serve_schedules"
	msgTrigNoStore      triggerMsg = "cli.serve_triggers_no_store"
	msgTrigSecretNew    triggerMsg = "cli.serve_webhook_secret_new"
	msgTrigSecretExists triggerMsg = "cli.serve_webhook_secret_exists"
	msgTrigSecretShown  triggerMsg = "cli.serve_webhook_secret_shown"
	msgTrigNoWebhook    triggerMsg = "cli.serve_no_webhook"
	msgTrigNoSecret     triggerMsg = "cli.serve_webhook_no_secret"
	msgTrigUsage        triggerMsg = "cli.serve_webhook_secret_usage"
)

var triggerTexts = workrun.NewCatalog(map[triggerMsg][2]string{
	msgTrigSchedules: {"serve: %d schedule(s); next fire %s", "serve：%d 个定时触发；下次触发 %s"},
	msgTrigNoStore:   {"serve: this build keeps no trigger fires: schedules and webhooks are off", "serve：此版本不保存触发记录：定时与 webhook 触发已关闭"},
	msgTrigSecretNew: {"webhook secret of %s created and kept in the OS keyring; give it to the sender (it signs with HMAC-SHA256, see docs/triggers.md):",
		"%s 的 webhook 密钥已创建并保存在系统密钥环中；请交给发送方（用 HMAC-SHA256 签名，见 docs/triggers.md）："},
	msgTrigSecretExists: {"%s has a webhook secret; --show prints it, --new replaces it (the old one stops working)",
		"%s 已有 webhook 密钥；--show 显示它，--new 替换它（旧密钥随即失效）"},
	msgTrigSecretShown: {"webhook secret of %s:", "%s 的 webhook 密钥："},
	msgTrigNoWebhook: {"serve webhook-secret: %s has no webhook trigger with auth hmac (its start node's \"triggers\")",
		"serve webhook-secret：%s 没有 auth 为 hmac 的 webhook 触发器（开始节点的 \"triggers\"）"},
	msgTrigNoSecret: {"serve: webhook %s has no secret: its requests are refused until `workrun serve webhook-secret FLOW` makes one",
		"serve：webhook %s 没有密钥：在 `workrun serve webhook-secret FLOW` 创建之前，它的请求都会被拒绝"},
	msgTrigUsage: {"serve webhook-secret needs FLOW (a workflow file, or a published workflow's name) [--show | --new]",
		"serve webhook-secret 需要 FLOW（工作流文件，或已发布工作流的名称）[--show | --new]"},
})

// secretKeyring is what the webhook secrets need of the OS keyring.
type secretKeyring interface {
	Get(service, user string) (string, error)
	Set(service, user, secret string) error
}

// servedTriggers is the triggers part of one `workrun serve`.
type servedTriggers struct {
	hooks *trigger.Webhooks
	sched *trigger.Scheduler
	base  string
	wg    sync.WaitGroup
}

// newServedTriggers reads the publications' triggers; nil when this build
// has no store for fires (said on stderr).
func newServedTriggers(log io.Writer, svc *Services, core *serve.Service, pubs []serve.Publication, base, lang string) (*servedTriggers, error) {
	st, ok := svc.Served.(trigger.Store)
	if !ok {
		fmt.Fprintln(log, triggerTexts.In(lang, msgTrigNoStore))
		return nil, nil
	}
	var kr trigger.SecretReader
	var tokens trigger.TokenChecker
	if svc.ServeTokens != nil {
		kr, _ = svc.ServeTokens.Keyring.(trigger.SecretReader)
		tokens = svc.ServeTokens
	}
	if kr == nil {
		kr = noKeyring{}
	}
	hooks, err := trigger.NewWebhooks(trigger.WebhookOptions{Runner: core, Store: st, Secrets: kr, Tokens: tokens, Artifacts: svc.Artifacts,
		Logger: slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelWarn}))}, pubs)
	if err != nil {
		return nil, err
	}
	sched, err := trigger.NewScheduler(core, st, trigger.SystemClock{}, pubs)
	if err != nil {
		return nil, err
	}
	for _, id := range hooks.IDs() {
		if hooks.Auth(id) == workrun.WebhookHMAC {
			if s, err := kr.Get(trigger.SecretService, id); err != nil || s == "" {
				fmt.Fprintln(log, triggerTexts.In(lang, msgTrigNoSecret, termLine(id)))
			}
		}
	}
	return &servedTriggers{hooks: hooks, sched: sched, base: base}, nil
}

type noKeyring struct{}

func (noKeyring) Get(string, string) (string, error) {
	return "", errors.New("no OS keyring in this build")
}

// mount serves the webhooks under /webhook/ and everything else by next.
func (t *servedTriggers) mount(next http.Handler) http.Handler {
	if t == nil || len(t.hooks.IDs()) == 0 {
		return next
	}
	mux := http.NewServeMux()
	mux.Handle(trigger.Prefix, t.hooks)
	mux.Handle("/", next)
	return mux
}

// urlLines are the `webhook URL` lines, one per webhook (data, not text).
func (t *servedTriggers) urlLines() []string {
	if t == nil {
		return nil
	}
	var lines []string
	for _, id := range t.hooks.IDs() {
		lines = append(lines, "webhook "+t.base+trigger.Prefix+id)
	}
	return lines
}

// start runs the scheduler until the returned stop is called.
func (t *servedTriggers) start(ctx context.Context, log io.Writer, lang string) func() {
	if t == nil || t.sched.Len() == 0 {
		return func() {}
	}
	next := t.sched.Next()
	first := ""
	for _, n := range next {
		if first == "" || n.At.Local().Format(time.DateTime) < first {
			first = n.At.Local().Format(time.DateTime)
		}
	}
	fmt.Fprintln(log, triggerTexts.In(lang, msgTrigSchedules, t.sched.Len(), first))
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	var mu sync.Mutex
	t.wg.Go(func() {
		t.sched.Run(ctx, func(err error) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(log, "workrun: serve: %s\n", termText(err.Error(), "  "))
		})
	})
	return func() { cancel(); t.wg.Wait() }
}

// serveWebhookSecretCommand: `workrun serve webhook-secret FLOW [--show|--new]`.
func serveWebhookSecretCommand(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("serve webhook-secret", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	langFlag := fs.String("lang", "", "")
	show := fs.Bool("show", false, "")
	renew := fs.Bool("new", false, "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "serve webhook-secret: "+err.Error())
	}
	lang, err := readerLanguage(env, *langFlag)
	if err != nil {
		return usageError(env, "serve webhook-secret: "+err.Error())
	}
	say := func(id triggerMsg, a ...any) string { return triggerTexts.In(lang, id, a...) }
	if len(pos) != 1 || (*show && *renew) {
		return usageError(env, say(msgTrigUsage))
	}
	svc, code := env.open(ctx)
	if svc == nil {
		return code
	}
	defer closeServices(env, svc)
	var kr secretKeyring
	if svc.ServeTokens != nil {
		kr, _ = svc.ServeTokens.Keyring.(secretKeyring)
	}
	if kr == nil || svc.Engine == nil {
		fmt.Fprintln(env.Stderr, "workrun: "+serveTexts.In(lang, msgServeNoKeyring))
		return ExitFailed
	}
	id, err := webhookID(ctx, svc, pos[0], lang)
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: %s\n", termText(err.Error(), "  "))
		return ExitUsage
	}
	old, gerr := kr.Get(trigger.SecretService, id)
	if gerr == nil && old != "" && !*renew {
		if !*show {
			fmt.Fprintln(env.Stderr, say(msgTrigSecretExists, termLine(id)))
			return ExitOK
		}
		fmt.Fprintln(env.Stderr, say(msgTrigSecretShown, termLine(id)))
		fmt.Fprintln(env.Stdout, old)
		return ExitOK
	}
	secret := trigger.NewSecret()
	if err := kr.Set(trigger.SecretService, id, secret); err != nil {
		fmt.Fprintf(env.Stderr, "workrun: serve webhook-secret: %s\n", termText(err.Error(), "  "))
		return ExitFailed
	}
	fmt.Fprintln(env.Stderr, say(msgTrigSecretNew, termLine(id)))
	fmt.Fprintln(env.Stdout, secret)
	return ExitOK
}

// webhookID is the publication id of FLOW (a file, or a published saved
// workflow by name or id) when it has an HMAC webhook.
func webhookID(ctx context.Context, svc *Services, flow, lang string) (string, error) {
	var pubs []serve.Publication
	var err error
	if strings.HasSuffix(flow, ".json") {
		pubs, err = publications(ctx, svc, []string{flow}, lang)
	} else {
		var all []serve.Publication
		all, err = publications(ctx, svc, nil, lang)
		for _, p := range all {
			if p.ID == flow || p.Name == flow || p.Workflow.Name == flow {
				pubs = append(pubs, p)
			}
		}
	}
	if err != nil {
		return "", err
	}
	for _, p := range pubs {
		ts, err := workrun.Triggers(p.Workflow)
		if err != nil {
			return "", err
		}
		for _, t := range ts {
			if t.Type == workrun.TriggerWebhook && t.AuthMethod() == workrun.WebhookHMAC {
				return p.ID, nil
			}
		}
	}
	return "", errors.New(triggerTexts.In(lang, msgTrigNoWebhook, termLine(flow)))
}
