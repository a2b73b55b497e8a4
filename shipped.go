package main

import (
	"embed"
	"io/fs"
)

// Files shipped inside the binary, so that the window offers them wherever
// it was installed; Go embeds only from the package's own directory, so
// they are here, beside examples/ and docs/, and handed to the window
// (desktop.Shipped).

// exampleFiles are the shipped example workflows File → New from template
// offers.
//
//go:embed examples/*.json
var exampleFiles embed.FS

// workflowFormatDoc is the workflow file format document Help shows.
//
//go:embed docs/workflow-format.md
var workflowFormatDoc string

// templates is exampleFiles' examples/ folder.
func templates() fs.FS {
	sub, err := fs.Sub(exampleFiles, "examples")
	if err != nil {
		panic(err) // the embed pattern guarantees the folder
	}
	return sub
}
