// Command pecheck checks what make dist promises about the Windows
// executable, on any OS: a 64-bit GUI-subsystem PE file whose resources hold
// the app icon, a manifest and a version resource with the expected file
// version.
//
//	go run ./scripts/pecheck FILE.exe X.Y.Z.B
//
// It prints one line per finding and exits 1 when one is missing.
package main

import (
	"bytes"
	"debug/pe"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
)

// Resource type ids (winuser.h).
const (
	rtIcon      = 3
	rtGroupIcon = 14
	rtVersion   = 16
	rtManifest  = 24
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: pecheck FILE.exe X.Y.Z.B")
		os.Exit(2)
	}
	if err := check(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "pecheck:", err)
		os.Exit(1)
	}
}

func check(path, wantVersion string) error {
	f, err := pe.Open(path)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
	if !ok || f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
		return errors.New("not a 64-bit x86-64 PE file")
	}
	if oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_GUI {
		return fmt.Errorf("subsystem %d, want the GUI subsystem (no console window from the Start menu)", oh.Subsystem)
	}
	fmt.Println("pecheck: PE32+ x86-64, GUI subsystem")
	rsrc := f.Section(".rsrc")
	if rsrc == nil {
		return errors.New("no .rsrc section: no icon or version resource")
	}
	data, err := rsrc.Data()
	if err != nil {
		return fmt.Errorf("read .rsrc: %w", err)
	}
	types, err := resourceTypes(data)
	if err != nil {
		return err
	}
	for _, want := range []struct {
		id   uint32
		name string
	}{{rtIcon, "icon"}, {rtGroupIcon, "icon group"}, {rtVersion, "version"}, {rtManifest, "manifest"}} {
		if !types[want.id] {
			return fmt.Errorf("no %s resource", want.name)
		}
		fmt.Printf("pecheck: %s resource present\n", want.name)
	}
	got, err := fixedFileVersion(data)
	if err != nil {
		return err
	}
	if got != wantVersion {
		return fmt.Errorf("file version %s, want %s", got, wantVersion)
	}
	fmt.Printf("pecheck: file version %s\n", got)
	return nil
}

// resourceTypes reads the ids of the root resource directory: one entry per
// resource type.
func resourceTypes(data []byte) (map[uint32]bool, error) {
	if len(data) < 16 {
		return nil, errors.New(".rsrc too short")
	}
	named := int(binary.LittleEndian.Uint16(data[12:]))
	ids := int(binary.LittleEndian.Uint16(data[14:]))
	types := map[uint32]bool{}
	for i := range named + ids {
		off := 16 + 8*i
		if off+8 > len(data) {
			return nil, errors.New(".rsrc directory runs past the section")
		}
		name := binary.LittleEndian.Uint32(data[off:])
		if name&0x80000000 == 0 { // an id, not a string name
			types[name] = true
		}
	}
	return types, nil
}

// fixedFileVersion finds VS_FIXEDFILEINFO by its signature and returns its
// file version as "A.B.C.D".
func fixedFileVersion(data []byte) (string, error) {
	sig := []byte{0xbd, 0x04, 0xef, 0xfe}
	i := bytes.Index(data, sig)
	if i < 0 || i+16 > len(data) {
		return "", errors.New("no VS_FIXEDFILEINFO in the version resource")
	}
	ms := binary.LittleEndian.Uint32(data[i+8:])
	ls := binary.LittleEndian.Uint32(data[i+12:])
	return fmt.Sprintf("%d.%d.%d.%d", ms>>16, ms&0xffff, ls>>16, ls&0xffff), nil
}
