//go:build !unix

package artifacts

import "os"

// holdFile: without flock nothing marks a file in use.
func holdFile(*os.File) error { return nil }

// abandoned: without flock no file can be judged abandoned early; gc's
// grace period covers them.
func abandoned(string) bool { return false }

// held: without flock nothing is known to be held.
func held(string) bool { return false }
