// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Trees of a caller's OpenCL buffers: a device of the caller's context, and builds from and
//! into device buffers with events, nothing read back. The handles are OpenCL's own pointers
//! (cast those of an OpenCL crate with `as`); no OpenCL crate is needed here.

use std::ptr::{self, NonNull};

use crate::builder::Builder;
use crate::device::Device;
use crate::error::{check, Error, Result, Status};
use crate::handle::created;
use merklize_sys as sys;

/// OpenCL's `cl_context`.
pub type ClContext = *mut sys::_cl_context;
/// OpenCL's `cl_device_id`.
pub type ClDeviceId = *mut sys::_cl_device_id;
/// OpenCL's `cl_mem`.
pub type ClMem = *mut sys::_cl_mem;
/// OpenCL's `cl_event`.
pub type ClEvent = *mut sys::_cl_event;

/// The nodes [`Builder::build_cl`] writes for `leaf_count` leaves (levels 1..depth; 1 for one
/// leaf).
pub fn output_node_count(leaf_count: u64) -> u64 {
    // SAFETY: a pure function of its argument.
    unsafe { sys::merklize_output_node_count(leaf_count) }
}

impl Device {
    /// A device of the caller's own OpenCL context, so that [`Builder::build_cl`] can take the
    /// caller's buffers. Both handles are retained by the device (the caller keeps its own
    /// references).
    ///
    /// # Safety
    /// `context` and `device_id` are valid OpenCL handles, `device_id` a device of `context`.
    pub unsafe fn from_cl(context: ClContext, device_id: ClDeviceId) -> Result<Device> {
        let raw: NonNull<sys::merklize_device> =
            created(|out| sys::merklize_device_open_cl(context, device_id, out))?;
        Ok(Device::from_raw(raw))
    }
}

impl Builder {
    /// Builds the tree of `leaf_count` leaves of 32 bytes in the device buffer `leaves` into the
    /// buffer `nodes`, which receives [`output_node_count`] nodes: level 1 first, the root (or,
    /// with a fixed depth above the natural one, the top stored node) last. Waits for the
    /// events of `wait` first. Returns an event that completes with the tree, retained for the
    /// caller, who releases it (`clReleaseEvent`).
    ///
    /// Binary trees of 32-byte leaves only, on a builder of a device opened with
    /// [`Device::from_cl`] on the buffers' context.
    ///
    /// # Safety
    /// `leaves` and `nodes` are valid buffers of at least `leaf_count` × 32 and
    /// `output_node_count(leaf_count)` × 32 bytes, the events of `wait` valid events; the
    /// buffers are not changed or released by the caller until the returned event completes.
    pub unsafe fn build_cl(
        &self,
        leaves: ClMem,
        leaf_count: u64,
        nodes: ClMem,
        wait: &[ClEvent],
    ) -> Result<ClEvent> {
        let (wait_count, wait_ptr) = wait_list(wait, "build_cl")?;
        let mut done: ClEvent = ptr::null_mut();
        check(sys::merklize_build_cl(
            self.as_ptr(),
            leaves,
            leaf_count,
            nodes,
            wait_count,
            wait_ptr,
            &mut done,
        ))?;
        given(done, "merklize_build_cl")
    }
}

/// The events to wait for as the C ABI takes them: their count and a pointer (null for none).
pub(crate) fn wait_list(wait: &[ClEvent], function: &str) -> Result<(u32, *const ClEvent)> {
    let count = u32::try_from(wait.len())
        .map_err(|_| Error::argument(format!("{}: {} events to wait for", function, wait.len())))?;
    Ok((
        count,
        if wait.is_empty() {
            ptr::null()
        } else {
            wait.as_ptr()
        },
    ))
}

/// The event a call that succeeded gave, which it must have.
pub(crate) fn given(done: ClEvent, function: &str) -> Result<ClEvent> {
    if done.is_null() {
        return Err(Error::new(
            Status::Internal,
            format!("{} succeeded and gave no event", function),
        ));
    }
    Ok(done)
}
