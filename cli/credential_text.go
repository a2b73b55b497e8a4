package cli

import "workrun/workrun"

// `workrun credential login`'s words for a person about the JWT bearer
// sign-ins (docs/oauth.md "Workload identity", "Enterprise-managed
// authorization"; docs/conventions.md §9).
type loginMsg string

const (
	msgLoginAssertionModes loginMsg = "cli.login_assertion_modes"
	msgLoginIdPNeeded      loginMsg = "cli.login_idp_needed"
	msgLoginIdPWithout     loginMsg = "cli.login_idp_without"
	msgLoginBadIdPURL      loginMsg = "cli.login_bad_idp_url"
	msgLoginTokenFile      loginMsg = "cli.login_token_file"
)

var loginTexts = workrun.NewCatalog(map[loginMsg][2]string{
	msgLoginAssertionModes: {"credential login: --assertion-file, --id-token-file, --device and --client-credentials exclude each other",
		"credential login：--assertion-file、--id-token-file、--device 与 --client-credentials 只能选一个"},
	msgLoginIdPNeeded: {"credential login: --id-token-file needs the identity provider: --idp-issuer URL or --idp-token-url URL",
		"credential login：--id-token-file 需要身份提供方：--idp-issuer URL 或 --idp-token-url URL"},
	msgLoginIdPWithout: {"credential login: --idp-issuer, --idp-token-url and --idp-client-id go with --id-token-file",
		"credential login：--idp-issuer、--idp-token-url 和 --idp-client-id 须与 --id-token-file 一起使用"},
	msgLoginBadIdPURL: {"credential login: %s: %s", "credential login：%s：%s"},
	msgLoginTokenFile: {"credential login: the token file %s cannot be read: %s",
		"credential login：无法读取令牌文件 %s：%s"},
})
