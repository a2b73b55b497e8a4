package assets

import "embed"

// licenses holds THIRD_PARTY_LICENSES.txt when the build generated it (make
// build, make dist run scripts/licenses); this README keeps the directory
// embeddable in a plain go build.
//
//go:embed licenses
var licenses embed.FS

// ThirdPartyLicenses returns the licence texts of the dependencies linked
// into this binary, or "" when the build did not generate them.
func ThirdPartyLicenses() string {
	b, err := licenses.ReadFile("licenses/THIRD_PARTY_LICENSES.txt")
	if err != nil {
		return ""
	}
	return string(b)
}
