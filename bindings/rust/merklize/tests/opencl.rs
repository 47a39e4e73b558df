// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Trees of a caller's OpenCL buffers: a device of the test's own context (OpenCL's C API,
//! declared here for the few calls needed, linked from libOpenCL), leaves in a device buffer,
//! nodes written into another, against the tree built from host memory; device trees, binary
//! and of arity k, updated from the caller's buffers.

mod common;

use std::os::raw::c_void;
use std::ptr;

use common::{device, random_leaves};
use merklize::{
    output_node_count, Builder, ClContext, ClDeviceId, ClEvent, ClMem, Device, DeviceTree, Hash,
    Source, Status, TreeConfig,
};

type Handle = *mut c_void;
const CL_DEVICE_TYPE_ALL: u64 = 0xffff_ffff;
const CL_MEM_READ_WRITE: u64 = 1;
const CL_MEM_COPY_HOST_PTR: u64 = 1 << 5;

#[link(name = "OpenCL")]
extern "C" {
    fn clGetPlatformIDs(entries: u32, platforms: *mut Handle, count: *mut u32) -> i32;
    fn clGetDeviceIDs(
        platform: Handle,
        kind: u64,
        entries: u32,
        devices: *mut Handle,
        count: *mut u32,
    ) -> i32;
    fn clCreateContext(
        properties: *const isize,
        count: u32,
        devices: *const Handle,
        notify: Option<extern "C" fn(*const i8, *const c_void, usize, *mut c_void)>,
        user_data: *mut c_void,
        error: *mut i32,
    ) -> Handle;
    fn clCreateCommandQueue(
        context: Handle,
        device: Handle,
        properties: u64,
        error: *mut i32,
    ) -> Handle;
    fn clCreateBuffer(
        context: Handle,
        flags: u64,
        size: usize,
        host: *mut c_void,
        error: *mut i32,
    ) -> Handle;
    fn clEnqueueReadBuffer(
        queue: Handle,
        buffer: Handle,
        blocking: u32,
        offset: usize,
        size: usize,
        out: *mut c_void,
        wait_count: u32,
        wait: *const Handle,
        event: *mut Handle,
    ) -> i32;
    fn clReleaseEvent(event: Handle) -> i32;
    fn clReleaseMemObject(buffer: Handle) -> i32;
    fn clReleaseCommandQueue(queue: Handle) -> i32;
    fn clReleaseContext(context: Handle) -> i32;
}

fn ok(code: i32, call: &str) {
    assert_eq!(code, 0, "{} failed: {}", call, code);
}

/// The first device of the first platform, a context and a queue of it.
struct Cl {
    device: Handle,
    context: Handle,
    queue: Handle,
}

impl Cl {
    fn new() -> Cl {
        let _ = device(); // the platform set up under the crate's lock first
        unsafe {
            let (mut platform, mut device, mut count, mut error) =
                (ptr::null_mut(), ptr::null_mut(), 0, 0);
            ok(
                clGetPlatformIDs(1, &mut platform, &mut count),
                "clGetPlatformIDs",
            );
            ok(
                clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &mut device, &mut count),
                "clGetDeviceIDs",
            );
            let context =
                clCreateContext(ptr::null(), 1, &device, None, ptr::null_mut(), &mut error);
            ok(error, "clCreateContext");
            let queue = clCreateCommandQueue(context, device, 0, &mut error);
            ok(error, "clCreateCommandQueue");
            Cl {
                device,
                context,
                queue,
            }
        }
    }

    fn buffer(&self, bytes: &mut [u8], copy: bool) -> Handle {
        let mut error = 0;
        let flags = CL_MEM_READ_WRITE | if copy { CL_MEM_COPY_HOST_PTR } else { 0 };
        let host = if copy {
            bytes.as_mut_ptr().cast()
        } else {
            ptr::null_mut()
        };
        let buffer = unsafe { clCreateBuffer(self.context, flags, bytes.len(), host, &mut error) };
        ok(error, "clCreateBuffer");
        buffer
    }

    /// An update's indices (little-endian uint64) and leaves, each in a buffer of their own.
    fn update_buffers(&self, indices: &[u64], leaves: &[[u8; 32]]) -> (Handle, Handle) {
        let mut index_bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let mut leaf_bytes = leaves.concat();
        (
            self.buffer(&mut index_bytes, true),
            self.buffer(&mut leaf_bytes, true),
        )
    }
}

impl Drop for Cl {
    fn drop(&mut self) {
        unsafe {
            clReleaseCommandQueue(self.queue);
            clReleaseContext(self.context);
        }
    }
}

#[test]
fn build_cl_writes_the_levels_above_the_leaves_into_the_caller_s_buffer() {
    let cl = Cl::new();
    let device =
        unsafe { Device::from_cl(cl.context as ClContext, cl.device as ClDeviceId) }.unwrap();
    let host = merklize::devices().unwrap();
    assert!(host.iter().any(|d| d.name == device.info().unwrap().name));
    let builder = Builder::new(&device, &TreeConfig::new().hash(Hash::Sha256)).unwrap();
    for &n in &[1usize, 2, 3, 1000, 1025] {
        let leaves = random_leaves(n, n as u64);
        let want = builder.build(Source::leaves(&leaves)).unwrap();
        let count = output_node_count(n as u64) as usize;
        assert_eq!(
            count,
            want.levels().unwrap()[1..]
                .iter()
                .map(|l| l.len())
                .sum::<usize>()
                .max(1)
        );
        let mut leaf_bytes = leaves.concat();
        let mut out = vec![0u8; count * 32];
        let leaves_buffer = cl.buffer(&mut leaf_bytes, true);
        let nodes_buffer = cl.buffer(&mut out, false);
        unsafe {
            let done: ClEvent = builder
                .build_cl(leaves_buffer as ClMem, n as u64, nodes_buffer as ClMem, &[])
                .unwrap();
            let wait = [done as Handle];
            let read = clEnqueueReadBuffer(
                cl.queue,
                nodes_buffer,
                1,
                0,
                out.len(),
                out.as_mut_ptr().cast(),
                1,
                wait.as_ptr(),
                ptr::null_mut(),
            );
            ok(read, "clEnqueueReadBuffer");
            ok(clReleaseEvent(done as Handle), "clReleaseEvent");
            clReleaseMemObject(leaves_buffer);
            clReleaseMemObject(nodes_buffer);
        }
        let nodes: Vec<u8> = if n == 1 {
            want.root().to_vec()
        } else {
            want.levels().unwrap()[1..].concat().concat()
        };
        assert_eq!(out, nodes, "n={}", n);
        assert_eq!(
            &out[out.len() - 32..],
            &want.root(),
            "n={}: the root last",
            n
        );
    }

    // A builder of another context, or of a k-ary tree, is refused with the reason.
    let mut bytes = vec![0u8; 64];
    let leaves_buffer = cl.buffer(&mut bytes, true);
    let other = Builder::new(&common::device(), &TreeConfig::new()).unwrap();
    let e = unsafe { other.build_cl(leaves_buffer as ClMem, 2, leaves_buffer as ClMem, &[]) }
        .unwrap_err();
    assert_eq!(e.status(), Status::Argument);
    assert!(e.message().contains("another OpenCL context"), "{}", e);
    let kary = Builder::new(&device, &TreeConfig::new().hash(Hash::Sha256).arity(4)).unwrap();
    let e = unsafe { kary.build_cl(leaves_buffer as ClMem, 2, leaves_buffer as ClMem, &[]) }
        .unwrap_err();
    assert!(
        e.message().contains("binary trees of 32-byte leaves"),
        "{}",
        e
    );
    unsafe { clReleaseMemObject(leaves_buffer) };
}

#[test]
fn device_trees_append_and_update_from_the_caller_s_buffers() {
    let cl = Cl::new();
    let device =
        unsafe { Device::from_cl(cl.context as ClContext, cl.device as ClDeviceId) }.unwrap();
    let builder = Builder::new(&device, &TreeConfig::new().hash(Hash::Rfc6962)).unwrap();
    let mut leaves = random_leaves(3, 34);
    let mut tree = DeviceTree::new(&builder, &leaves).unwrap();
    // Appends across powers of two, each root a fresh build's over all the leaves.
    for &count in &[1usize, 4, 255, 257] {
        let more = random_leaves(count, count as u64);
        let mut bytes = more.concat();
        let buffer = cl.buffer(&mut bytes, true);
        let (root, done) = unsafe { tree.append_cl(buffer as ClMem, count as u64, &[]) }.unwrap();
        unsafe {
            ok(clReleaseEvent(done as Handle), "clReleaseEvent");
            clReleaseMemObject(buffer);
        }
        leaves.extend(more);
        let want = builder.build(Source::leaves(&leaves)).unwrap().root();
        assert_eq!(root, want, "append of {}", count);
        assert_eq!(tree.root(), want);
        assert_eq!(tree.leaf_count(), leaves.len() as u64);
    }
    // An update: a repeated index takes its last value.
    let values = random_leaves(3, 7);
    let (at, new) = cl.update_buffers(&[0, 519, 0], &values);
    let (root, done) = unsafe { tree.update_cl(at as ClMem, new as ClMem, 3, &[]) }.unwrap();
    unsafe { ok(clReleaseEvent(done as Handle), "clReleaseEvent") };
    leaves[519] = values[1];
    leaves[0] = values[2];
    assert_eq!(root, builder.build(Source::leaves(&leaves)).unwrap().root());
    // A buffer too small, or an index past the tree, is refused, the tree as it was.
    let e = unsafe { tree.append_cl(new as ClMem, 4, &[]) }.unwrap_err();
    assert_eq!(e.status(), Status::Argument);
    assert!(e.message().contains("too small"), "{}", e);
    let mut past: Vec<u8> = 520u64.to_le_bytes().to_vec();
    let past_buffer = cl.buffer(&mut past, true);
    let e = unsafe { tree.update_cl(past_buffer as ClMem, new as ClMem, 1, &[]) }.unwrap_err();
    assert!(e.message().contains("leaf index 520 out of range"), "{}", e);
    assert_eq!(tree.root(), root);
    assert_eq!(tree.leaf_count(), 520);
    unsafe {
        clReleaseMemObject(at);
        clReleaseMemObject(new);
        clReleaseMemObject(past_buffer);
    }
}

#[test]
fn device_trees_of_arity_k_update_from_the_caller_s_buffers() {
    let cl = Cl::new();
    let device =
        unsafe { Device::from_cl(cl.context as ClContext, cl.device as ClDeviceId) }.unwrap();
    for arity in [4u32, 16] {
        let config = TreeConfig::new().hash(Hash::Sha256).arity(arity);
        let builder = Builder::new(&device, &config).unwrap();
        let n = arity as usize * arity as usize + 1;
        let mut leaves = random_leaves(n, 38);
        let mut tree = DeviceTree::new(&builder, &leaves).unwrap();
        // A repeated index takes its last value.
        let values = random_leaves(3, 39);
        let (at, new) = cl.update_buffers(&[0, n as u64 - 1, 0], &values);
        let (root, done) = unsafe { tree.update_cl(at as ClMem, new as ClMem, 3, &[]) }.unwrap();
        unsafe { ok(clReleaseEvent(done as Handle), "clReleaseEvent") };
        leaves[n - 1] = values[1];
        leaves[0] = values[2];
        assert_eq!(root, builder.build(Source::leaves(&leaves)).unwrap().root());
        assert_eq!(tree.root(), root);
        // An index past the tree is refused, the tree as it was.
        let mut past: Vec<u8> = (n as u64).to_le_bytes().to_vec();
        let past_buffer = cl.buffer(&mut past, true);
        let e = unsafe { tree.update_cl(past_buffer as ClMem, new as ClMem, 1, &[]) }.unwrap_err();
        assert_eq!(e.status(), Status::Argument);
        assert!(e.message().contains("out of range"), "{}", e);
        assert_eq!(tree.root(), root);
        unsafe {
            clReleaseMemObject(at);
            clReleaseMemObject(new);
            clReleaseMemObject(past_buffer);
        }
    }
}
