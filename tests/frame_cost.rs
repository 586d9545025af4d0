//! The render side's per-frame cost, counted rather than timed: an idle frame (no command waiting,
//! nothing changed) allocates nothing on the render thread. Timings belong to the benchmark
//! (`bash scripts/bench.sh`); allocation counts are exact and do not depend on the machine.
#![cfg(feature = "automation")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use winit::window::WindowId;
use winit_automation::{Automation, Bounds, Widget, WindowState};

/// Counts the allocations of the thread that asks (the service thread's do not count).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to the system allocator, which upholds
// `GlobalAlloc`'s contract; the counter is a const-initialised thread-local `Cell` without a
// destructor, so touching it never allocates or re-enters the allocator.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        // SAFETY: the caller's layout is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn an_idle_frame_allocates_nothing_on_the_render_thread() {
    let dir = tempfile::tempdir().unwrap();
    let automation = Automation::builder()
        .dir(dir.path().join("box"))
        .app_name("frame-cost")
        .start()
        .unwrap();
    let window = WindowId::from(1);
    automation.window_state(
        window,
        WindowState {
            title: "cost".into(),
            width: 320.0,
            height: 200.0,
            scale_factor: 1.0,
            focused: true,
        },
    );
    // Warm-up: the first frames publish the tree handed to the first of them.
    for warm_up in 0..3 {
        let mut frame = automation.frame();
        for _ in frame.input() {}
        if warm_up == 0 {
            frame.widgets(
                window,
                vec![
                    Widget::new("ok", accesskit::Role::Button, "OK")
                        .bounds(Bounds::new(0.0, 0.0, 50.0, 20.0)),
                ],
            );
        }
        drop(frame);
    }
    let frame_before = automation.frame_number();
    let before = allocations();
    for _ in 0..1000 {
        let mut frame = automation.frame();
        for _ in frame.input() {}
        drop(frame);
    }
    let allocated = allocations() - before;
    // The frames really ran through the plugin.
    assert_eq!(automation.frame_number(), frame_before + 1000);
    assert_eq!(allocated, 0, "1000 idle frames allocated {allocated} times");
    // A positive control: the counter does see this thread's allocations.
    let before = allocations();
    let v = std::hint::black_box(vec![1u8; 16]);
    assert!(allocations() > before, "the counting allocator saw nothing");
    drop(v);
}

#[test]
fn unchanged_layers_and_press_reports_allocate_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let automation = Automation::builder()
        .dir(dir.path().join("box"))
        .app_name("frame-cost-layers")
        .start()
        .unwrap();
    let window = WindowId::from(1);
    let mut layers = winit_automation::Layers {
        order: vec![accesskit::NodeId(1), accesskit::NodeId(2)],
        modal: Some(accesskit::NodeId(2)),
        clips: vec![(accesskit::NodeId(3), None)],
    };
    // The first call copies and sends them.
    let mut frame = automation.frame();
    for _ in frame.input() {}
    frame.layers(window, &layers);
    drop(frame);
    let before = allocations();
    for _ in 0..1000 {
        let mut frame = automation.frame();
        for _ in frame.input() {}
        // The app refills its value in place each frame, as an adapter would.
        layers.order.clear();
        layers
            .order
            .extend([accesskit::NodeId(1), accesskit::NodeId(2)]);
        frame.layers(window, &layers);
        frame.pointer_hit(window, Some(accesskit::NodeId(1)));
        drop(frame);
    }
    let allocated = allocations() - before;
    assert_eq!(allocated, 0, "1000 frames allocated {allocated} times");
    // A positive control: a change is copied (and sent).
    layers.order.push(accesskit::NodeId(4));
    let mut frame = automation.frame();
    let before = allocations();
    frame.layers(window, &layers);
    assert!(allocations() > before, "a change was not copied");
    drop(frame);
}
