// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Devices: the list, and opened devices.

use std::os::raw::c_char;

use crate::{_cl_context, _cl_device_id, merklize_status};

/// `struct merklize_device_info`: `size` is set by the caller to its size; the strings are
/// NUL-terminated.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct merklize_device_info {
    pub size: u32,
    pub spec: [c_char; 32],
    pub name: [c_char; 256],
    pub vendor: [c_char; 256],
    pub platform: [c_char; 256],
    pub type_: [c_char; 16],
}

opaque! {
    /// A device and its OpenCL context.
    merklize_device;
}

extern "C" {
    pub fn merklize_device_count(count: *mut usize) -> merklize_status;
    pub fn merklize_device_get_info(
        index: usize,
        info: *mut merklize_device_info,
    ) -> merklize_status;
    pub fn merklize_device_open(
        spec: *const c_char,
        device: *mut *mut merklize_device,
    ) -> merklize_status;
    pub fn merklize_device_open_cl(
        context: *mut _cl_context,
        device_id: *mut _cl_device_id,
        device: *mut *mut merklize_device,
    ) -> merklize_status;
    pub fn merklize_device_free(device: *mut merklize_device);
    pub fn merklize_device_describe(
        device: *const merklize_device,
        info: *mut merklize_device_info,
    ) -> merklize_status;
}
