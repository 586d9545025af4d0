//! The render-cost loop of `benches/frame.rs` with the `automation` feature off: the same calls,
//! compiled to no-ops, for the comparison row. `bash scripts/bench.sh` runs it without features.
#![allow(clippy::print_stdout)]

#[path = "../tests/common/app.rs"]
mod app;
#[path = "shared/render_loop.rs"]
mod render_loop;

fn main() {
    let mut v = render_loop::render_cost();
    v.sort();
    let q = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1e6;
    println!(
        "| render thread per frame, the same loop with the feature {} | {:.1} us | {:.1} us | (baseline) | - |",
        if winit_automation::ENABLED {
            "ON (run this bench without features)"
        } else {
            "off"
        },
        q(0.5),
        q(0.99)
    );
}
