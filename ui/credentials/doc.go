// Package credentials is the credentials form of Settings → Credentials
// (docs/product.md W8): the list of credentials by name, origin and
// scheme, and a form that adds one, replaces its secret or deletes it;
// an OAuth credential (docs/oauth.md) is signed out, not replaced.
//
// A secret is typed into a password field and handed straight to OnSave;
// the view never shows it, keeps it after Saved, or reads it back. The view
// makes no keyring call: it checks the form (a name, a header for an API
// key, a secret, the origin through CheckOrigin — the remote layer's one
// rule, supplied by the app layer), reports what the person asked for
// (OnSave, OnDelete after a confirmation, OnSignIn), and shows the outcome
// the app layer hands back (SetList, Saved, Deleted, Say) once its call
// returned; Finished ends the operation and fires OnFinished. Labels come
// from the Localizer it is given. Every call is made on the UI goroutine;
// the view starts no goroutine and calls no fyne.Do (docs/ARCHITECTURE.md).
package credentials
