// SPDX-License-Identifier: Apache-2.0 OR MIT
//! A few raw calls through the declarations, as a C program makes them: the _init functions
//! fill their structs, the version is the ABI declared here, and a refused configuration
//! (an unknown hash name, which the safe crate's typed names cannot express) fails with
//! MERKLIZE_ERROR_ARGUMENT and a message naming the field, the out-pointer left as it was.

use std::ffi::{CStr, CString};
use std::mem::{size_of, MaybeUninit};
use std::ptr;

use merklize_sys::*;

#[test]
fn init_functions_fill_the_structs_with_the_documented_defaults() {
    let config = unsafe {
        let mut config = MaybeUninit::<merklize_tree_config>::uninit();
        merklize_tree_config_init(config.as_mut_ptr());
        config.assume_init()
    };
    assert_eq!(config.size as usize, size_of::<merklize_tree_config>());
    assert!(config.hash.is_null() && config.shape.is_null() && config.leaf_hash.is_null());
    assert_eq!(
        (config.depth, config.arity, config.leaf_size, config.keep),
        (-1, 2, 0, MERKLIZE_KEEP_ALL)
    );
    let verity = unsafe {
        let mut verity = MaybeUninit::<merklize_verity_config>::uninit();
        merklize_verity_config_init(verity.as_mut_ptr());
        verity.assume_init()
    };
    assert_eq!(verity.size as usize, size_of::<merklize_verity_config>());
    assert_eq!(
        (
            verity.data_block_size,
            verity.hash_block_size,
            verity.salt_size
        ),
        (4096, 4096, 0)
    );
    let source = merklize_source_path(b"x\0".as_ptr().cast());
    assert_eq!(
        (source.kind, source.fd, source.size),
        (MERKLIZE_SOURCE_PATH, -1, 0)
    );
    assert_eq!(merklize_source_fd(3).kind, MERKLIZE_SOURCE_FD);
}

#[test]
fn the_loaded_library_implements_this_abi() {
    assert_eq!(unsafe { merklize_abi_version() }, MERKLIZE_ABI_VERSION);
    let version = unsafe { CStr::from_ptr(merklize_version()) }
        .to_str()
        .unwrap();
    assert_eq!(version.split('.').count(), 3, "{}", version);
    let name = unsafe { CStr::from_ptr(merklize_status_name(MERKLIZE_ERROR_DECODE)) };
    assert_eq!(name.to_str().unwrap(), "MERKLIZE_ERROR_DECODE");
}

#[test]
fn an_unknown_hash_name_is_refused_with_the_field_named() {
    unsafe {
        let mut device = ptr::null_mut();
        let status = merklize_device_open(ptr::null(), &mut device);
        assert_eq!(
            status,
            MERKLIZE_OK,
            "{:?}",
            CStr::from_ptr(merklize_last_error())
        );
        let mut config = MaybeUninit::<merklize_tree_config>::uninit();
        merklize_tree_config_init(config.as_mut_ptr());
        let mut config = config.assume_init();
        let md5 = CString::new("md5").unwrap();
        config.hash = md5.as_ptr();
        let sentinel = 8usize as *mut merklize_builder;
        let mut builder = sentinel;
        assert_eq!(
            merklize_builder_create(device, &config, &mut builder),
            MERKLIZE_ERROR_ARGUMENT
        );
        assert_eq!(
            builder, sentinel,
            "the out-pointer is written only on success"
        );
        let message = CStr::from_ptr(merklize_last_error())
            .to_str()
            .unwrap()
            .to_string();
        assert!(
            message.contains("config.hash") && message.contains("md5"),
            "{}",
            message
        );
        config.size -= 1;
        config.hash = ptr::null();
        assert_eq!(
            merklize_builder_create(device, &config, &mut builder),
            MERKLIZE_ERROR_ARGUMENT
        );
        let message = CStr::from_ptr(merklize_last_error())
            .to_str()
            .unwrap()
            .to_string();
        assert!(message.contains("config->size"), "{}", message);
        merklize_device_free(device);
    }
}
