// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"merklize"
	"merklize/internal/cltest"
)

// openCL is the tests' own context (internal/cltest) and merklize's device of it, closed with the
// test.
func openCL(t *testing.T) (*cltest.CL, *merklize.CLDevice) {
	t.Helper()
	cl, err := cltest.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	device, err := merklize.NewCLDevice(merklize.CLContext(cl.Context), merklize.CLDeviceID(cl.Device))
	if err != nil {
		t.Fatalf("NewCLDevice: %v", err)
	}
	t.Cleanup(func() { device.Close() })
	return cl, device
}

// bufferOf is a buffer of the test's context holding data, released with the test.
func bufferOf(t *testing.T, cl *cltest.CL, data []byte) merklize.CLMem {
	t.Helper()
	buffer, err := cl.BufferOf(data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cltest.Release(buffer) })
	return merklize.CLMem(buffer)
}

// released checks that a call gave an event that has completed, and releases it.
func released(t *testing.T, done merklize.CLEvent) {
	t.Helper()
	if done == nil {
		t.Fatal("no event")
	}
	complete, err := cltest.EventComplete(unsafe.Pointer(done))
	if err != nil || !complete {
		t.Errorf("the event: complete %v, %v", complete, err)
	}
	if err := cltest.ReleaseEvent(unsafe.Pointer(done)); err != nil {
		t.Error(err)
	}
}

// TestBuildCL: the levels above the leaves (written by the caller, a write event to wait for)
// written into the caller's buffer (poisoned first), level 1 first and the root last, as the oracle's (crypto/sha256) tree and a host Build's, at
// 1, 2, 3, 2^k-1, 2^k and 2^k+1 leaves; the device is the test's own context's.
func TestBuildCL(t *testing.T) {
	cl, device := openCL(t)
	info, err := device.Info()
	if err != nil || info.Name == "" {
		t.Fatalf("Info: %+v, %v", info, err)
	}
	builder, err := merklize.NewBuilder(merklize.WithCLDevice(device), merklize.WithHash(merklize.HashSHA256))
	if err != nil {
		t.Fatal(err)
	}
	defer builder.Close()
	for _, n := range sizes {
		leaves := randomBytes(32*n, int64(n))
		oracle := sha256Tree(asLeaves(leaves), false, -1)
		var want []byte
		for _, level := range oracle.levels[1:] {
			want = append(want, leavesBytes(level)...)
		}
		if n == 1 {
			want = leaves // the root, a lone leaf
		}
		if got := merklize.OutputNodeCount(uint64(n)); got != uint64(len(want)/32) {
			t.Fatalf("n=%d: OutputNodeCount %d, want %d", n, got, len(want)/32)
		}
		out := bytes.Repeat([]byte{0xa5}, len(want))
		nodes := bufferOf(t, cl, out)
		in, err := cl.Buffer(len(leaves))
		if err != nil {
			t.Fatal(err)
		}
		write, err := cl.Write(in, leaves)
		if err != nil {
			t.Fatal(err)
		}
		done, err := builder.BuildCL(merklize.CLMem(in), uint64(n), nodes, []merklize.CLEvent{merklize.CLEvent(write)})
		cltest.ReleaseEvent(write)
		defer cltest.Release(in)
		if err != nil {
			t.Fatalf("n=%d: BuildCL: %v", n, err)
		}
		if err := cl.Read(unsafe.Pointer(nodes), out, unsafe.Pointer(done)); err != nil {
			t.Fatal(err)
		}
		released(t, done)
		if !bytes.Equal(out, want) {
			t.Fatalf("n=%d: the nodes differ from the oracle's", n)
		}
		host, err := builder.Build(leaves)
		if err != nil {
			t.Fatal(err)
		}
		if root := host.Root(); !bytes.Equal(out[len(out)-32:], root[:]) {
			t.Errorf("n=%d: the last node is not the host build's root", n)
		}
		host.Close()
	}
}

// TestBuildCLRefusals: a builder of another context, a k-ary one, a nil buffer: ErrArgument with
// the reason, nothing written.
func TestBuildCLRefusals(t *testing.T) {
	cl, device := openCL(t)
	out := bytes.Repeat([]byte{0xa5}, 32)
	leaves, nodes := bufferOf(t, cl, randomBytes(64, 1)), bufferOf(t, cl, out)
	other, err := merklize.NewBuilder()
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	kary, err := merklize.NewBuilder(merklize.WithCLDevice(device), merklize.WithArity(4))
	if err != nil {
		t.Fatal(err)
	}
	defer kary.Close()
	plain, err := merklize.NewBuilder(merklize.WithCLDevice(device))
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	for _, c := range []struct {
		name    string
		builder *merklize.Builder
		leaves  merklize.CLMem
		reason  string
	}{
		{"another context", other, leaves, "another OpenCL context"},
		{"k-ary", kary, leaves, "binary trees of 32-byte leaves"},
		{"nil leaves", plain, nil, "`leaves` is NULL"},
	} {
		done, err := c.builder.BuildCL(c.leaves, 2, nodes, nil)
		if !errors.Is(err, merklize.ErrArgument) || !strings.Contains(err.Error(), c.reason) || done != nil {
			t.Errorf("%s: %v, event %v; want ErrArgument naming %q", c.name, err, done, c.reason)
		}
	}
	got := make([]byte, 32)
	if err := cl.Read(unsafe.Pointer(nodes), got, nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, out) {
		t.Error("a refused BuildCL wrote the nodes")
	}
}

// appendCL appends more (whole leaves) to tree from a buffer of the test's context written
// after a write event the call waits for; the root, the done event checked and released.
func appendCL(t *testing.T, cl *cltest.CL, tree *merklize.DeviceTree, more []byte) [32]byte {
	t.Helper()
	buffer, err := cl.Buffer(len(more))
	if err != nil {
		t.Fatal(err)
	}
	defer cltest.Release(buffer)
	write, err := cl.Write(buffer, more)
	if err != nil {
		t.Fatal(err)
	}
	defer cltest.ReleaseEvent(write)
	root, done, err := tree.AppendCL(merklize.CLMem(buffer), uint64(len(more)/32), []merklize.CLEvent{merklize.CLEvent(write)})
	if err != nil {
		t.Fatalf("append of %d leaves: %v", len(more)/32, err)
	}
	released(t, done)
	return root
}

// TestDeviceTreeCL: appends across powers of two and an update from the caller's buffers, after
// a write event, give the roots of the oracle (RFC 6962's MTH) and of a twin tree given the same
// leaves from host memory (Append, Update); refused calls change nothing.
func TestDeviceTreeCL(t *testing.T) {
	cl, device := openCL(t)
	opts := []merklize.Option{merklize.WithHash(merklize.HashRFC6962)}
	leaves := asLeaves(randomBytes(3*32, 34))
	tree, err := merklize.NewDeviceTree(leavesBytes(leaves), append(opts, merklize.WithCLDevice(device))...)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	twin, err := merklize.NewDeviceTree(leavesBytes(leaves), opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer twin.Close()
	for _, count := range []int{1, 4, 255, 257} {
		more := randomBytes(32*count, int64(count))
		root := appendCL(t, cl, tree, more)
		leaves = append(leaves, asLeaves(more)...)
		want, err := twin.Append(asLeaves(more))
		if err != nil {
			t.Fatal(err)
		}
		if root != want || root != rfc6962Root(leaves) || tree.LeafCount() != uint64(len(leaves)) {
			t.Fatalf("append of %d: root %x, twin's %x, %d leaves", count, root, want, tree.LeafCount())
		}
	}
	// An update: a repeated index takes its last value.
	indices := []uint64{0, 519, 0}
	values := asLeaves(randomBytes(3*32, 7))
	at, updated := bufferOf(t, cl, indexBytes(indices)), bufferOf(t, cl, leavesBytes(values))
	root, done, err := tree.UpdateCL(at, updated, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	released(t, done)
	leaves[519], leaves[0] = values[1], values[2]
	want, err := twin.Update(indices, values)
	if err != nil || root != want || root != rfc6962Root(leaves) {
		t.Fatalf("update: root %x, twin's %x (%v)", root, want, err)
	}
	// Count 0 reads no buffer and gives the root.
	if got, done, err := tree.AppendCL(nil, 0, nil); err != nil || got != root {
		t.Errorf("an append of nothing: %x, %v", got, err)
	} else if done != nil {
		cltest.ReleaseEvent(unsafe.Pointer(done))
	}
	checkCLRefusals(t, cl, tree, at, updated, root, leaves)
}

// TestDeviceTreeCLOfArityK: a tree of arity 16 appends from the caller's buffers, after a
// write event, across its room, and updates from them (a repeated index: the last value), each
// root and level equal to a twin tree's given the same leaves from host memory.
func TestDeviceTreeCLOfArityK(t *testing.T) {
	cl, device := openCL(t)
	opts := []merklize.Option{merklize.WithHash(merklize.HashBlake3), merklize.WithArity(16)}
	leaves := asLeaves(randomBytes(17*32, 38))
	tree, err := merklize.NewDeviceTree(leavesBytes(leaves), append(opts, merklize.WithCLDevice(device))...)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	twin, err := merklize.NewDeviceTree(leavesBytes(leaves), opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer twin.Close()
	same := func(what string, root, want [32]byte) {
		t.Helper()
		if root != want || tree.LeafCount() != twin.LeafCount() {
			t.Fatalf("%s: root %x, twin's %x; %d leaves, twin's %d", what, root, want, tree.LeafCount(), twin.LeafCount())
		}
		for level := 0; level <= tree.Depth(); level++ {
			got, err := tree.Level(level)
			want, err2 := twin.Level(level)
			if err != nil || err2 != nil || !bytes.Equal(leavesBytes(got), leavesBytes(want)) {
				t.Fatalf("%s: level %d differs from the twin's (%v, %v)", what, level, err, err2)
			}
		}
	}
	for _, count := range []int{1, 16, 300} {
		more := randomBytes(32*count, int64(count))
		root := appendCL(t, cl, tree, more)
		want, err := twin.Append(asLeaves(more))
		if err != nil {
			t.Fatal(err)
		}
		same(fmt.Sprintf("append of %d", count), root, want)
	}
	indices := []uint64{0, 333, 0}
	values := asLeaves(randomBytes(3*32, 9))
	at, updated := bufferOf(t, cl, indexBytes(indices)), bufferOf(t, cl, leavesBytes(values))
	root, done, err := tree.UpdateCL(at, updated, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	released(t, done)
	want, err := twin.Update(indices, values)
	if err != nil {
		t.Fatal(err)
	}
	same("update", root, want)
}

func indexBytes(indices []uint64) []byte {
	b := make([]byte, 8*len(indices))
	for i, index := range indices {
		binary.LittleEndian.PutUint64(b[8*i:], index)
	}
	return b
}

// checkCLRefusals: a nil buffer where count > 0, a count past the buffer, an index past the tree
// and a buffer of another context are ErrArgument naming the reason, the tree as it was.
func checkCLRefusals(t *testing.T, cl *cltest.CL, tree *merklize.DeviceTree, at, updated merklize.CLMem,
	root [32]byte, leaves [][32]byte) {
	t.Helper()
	past := bufferOf(t, cl, indexBytes([]uint64{uint64(len(leaves))}))
	other, err := merklize.NewDeviceTree(leavesBytes(leaves[:2]), merklize.WithHash(merklize.HashRFC6962))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	refusals := []struct {
		name, reason string
		call         func() ([32]byte, merklize.CLEvent, error)
	}{
		{"nil leaves", "`leaves` is NULL", func() ([32]byte, merklize.CLEvent, error) { return tree.AppendCL(nil, 1, nil) }},
		{"nil indices", "`indices` is NULL", func() ([32]byte, merklize.CLEvent, error) { return tree.UpdateCL(nil, updated, 1, nil) }},
		{"count past the buffer", "too small", func() ([32]byte, merklize.CLEvent, error) { return tree.AppendCL(updated, 4, nil) }},
		{"index past the tree", "leaf index 520 out of range", func() ([32]byte, merklize.CLEvent, error) { return tree.UpdateCL(past, updated, 1, nil) }},
		{"another context", "another OpenCL context", func() ([32]byte, merklize.CLEvent, error) { return other.AppendCL(updated, 1, nil) }},
	}
	for _, r := range refusals {
		_, done, err := r.call()
		if !errors.Is(err, merklize.ErrArgument) || !strings.Contains(err.Error(), r.reason) || done != nil {
			t.Errorf("%s: %v, event %v; want ErrArgument naming %q", r.name, err, done, r.reason)
		}
	}
	if got, err := tree.Root(); err != nil || got != root || tree.LeafCount() != uint64(len(leaves)) {
		t.Errorf("a refused call changed the tree: root %x, %d leaves (%v)", got, tree.LeafCount(), err)
	}
	if got, _ := other.Root(); got != rfc6962Root(leaves[:2]) || other.LeafCount() != 2 {
		t.Error("a refused append of another context's buffer changed that tree")
	}
}

// TestCLDeviceOptions: WithCLDevice is a tree's device, refused beside WithDevice, by calls that
// take no tree, nil, and once closed; a builder outlives the CLDevice it was made with.
func TestCLDeviceOptions(t *testing.T) {
	_, device := openCL(t)
	leaves := randomBytes(5*32, 5)
	want, err := merklize.Root(leaves)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := merklize.Root(leaves, merklize.WithCLDevice(device)); err != nil || got != want {
		t.Errorf("Root WithCLDevice: %x, %v; want %x", got, err, want)
	}
	for name, err := range map[string]error{
		"WithDevice too": func() error {
			_, err := merklize.Root(leaves, merklize.WithCLDevice(device), merklize.WithDevice("cpu"))
			return err
		}(),
		"Blake3": func() error { _, err := merklize.Blake3(leaves, merklize.WithCLDevice(device)); return err }(),
		"nil":    func() error { _, err := merklize.NewBuilder(merklize.WithCLDevice(nil)); return err }(),
	} {
		if !errors.Is(err, merklize.ErrArgument) || !strings.Contains(err.Error(), "WithCLDevice") {
			t.Errorf("%s: %v, want ErrArgument naming WithCLDevice", name, err)
		}
	}
	builder, err := merklize.NewBuilder(merklize.WithCLDevice(device))
	if err != nil {
		t.Fatal(err)
	}
	defer builder.Close()
	device.Close()
	if _, err := merklize.NewBuilder(merklize.WithCLDevice(device)); !errors.Is(err, merklize.ErrClosed) {
		t.Errorf("a closed CLDevice: %v, want ErrClosed", err)
	}
	if got, err := builder.Root(leaves); err != nil || got != want {
		t.Errorf("a builder after its CLDevice's Close: %x, %v; want %x", got, err, want)
	}
	if _, err := merklize.NewCLDevice(nil, nil); !errors.Is(err, merklize.ErrArgument) {
		t.Errorf("NewCLDevice(nil, nil): %v, want ErrArgument", err)
	}
}
