//! Start-up every example shares: its flags (`--dir`, `--headless`, `--size`, `--queue-capacity`,
//! `--help`) and the plugin, started with what it says on stderr. Included with `#[path = "shared/setup.rs"] mod
//! setup;` (the window, the GPU and the event loop are shell.rs's).

use winit_automation::{Automation, Builder};

/// The flags every example takes.
pub struct Args {
    /// `--dir DIR`: the drop-box (default: `$WINIT_AUTOMATION_DIR` or `target/winit-automation`).
    pub dir: Option<String>,
    /// `--headless`: no window and no display.
    pub headless: bool,
    /// `--size WxH`: the headless frame's size in pixels.
    pub size: (u32, u32),
    /// `--queue-capacity N`: how many command entries may wait (`Builder::queue_capacity`).
    pub queue_capacity: Option<usize>,
}

impl Args {
    /// The command line: the shared flags, `--help` (prints `usage`, exits 0), and the flags
    /// `extra` takes (it gets a flag and the arguments after it, and says whether the flag was its
    /// own, or why its value is wrong). Anything else exits 2 with `usage`.
    pub fn parse(
        name: &str,
        usage: &str,
        size: (u32, u32),
        mut extra: impl FnMut(&str, &mut dyn Iterator<Item = String>) -> Result<bool, String>,
    ) -> Args {
        let fail = |why: &str| -> ! {
            eprintln!("{name}: {why}\n{usage}");
            std::process::exit(2);
        };
        let mut parsed = Args { dir: None, headless: false, size, queue_capacity: None };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--dir" => match args.next() {
                    Some(d) => parsed.dir = Some(d),
                    None => fail("--dir needs a directory"),
                },
                "--headless" => parsed.headless = true,
                "--size" => match parse_size(args.next()) {
                    Some(s) => parsed.size = s,
                    None => fail("--size needs WIDTHxHEIGHT, e.g. --size 1920x1080"),
                },
                "--queue-capacity" => match args.next().and_then(|n| n.parse().ok()) {
                    Some(n) if n > 0 => parsed.queue_capacity = Some(n),
                    _ => fail("--queue-capacity needs a positive number of commands, e.g. 10000"),
                },
                "--help" | "-h" => {
                    eprintln!("{usage}");
                    std::process::exit(0);
                }
                other => match extra(other, &mut args) {
                    Ok(true) => {}
                    Ok(false) => fail(&format!("unknown argument {other:?}")),
                    Err(why) => fail(&why),
                },
            }
        }
        parsed
    }
}

/// Starts the plugin from `builder` (with the app's name and `--dir`), exits with the error's
/// text if it cannot, and says where its drop-box is. Headless with the feature off, nothing
/// could drive the app: it exits 2.
pub fn automation(app: &str, builder: Builder, args: &Args) -> Automation {
    let mut builder = builder.app_name(app);
    if let Some(dir) = &args.dir {
        builder = builder.dir(dir);
    }
    if let Some(n) = args.queue_capacity {
        builder = builder.queue_capacity(n);
    }
    let automation = builder.start().unwrap_or_else(|e| {
        eprintln!("{app}: {e}");
        if let Some(hint) = e.hint() {
            eprintln!("hint: {hint}");
        }
        std::process::exit(1);
    });
    match automation.dir() {
        Some(d) if args.headless => eprintln!("{app}: headless, automation in {}", d.display()),
        Some(d) => eprintln!("{app}: automation in {}", d.display()),
        None if args.headless => {
            eprintln!(
                "{app}: built without the automation feature, so nothing can drive it headless; rebuild with --features automation"
            );
            std::process::exit(2);
        }
        None => eprintln!("{app}: built without the automation feature"),
    }
    automation
}

/// `WIDTHxHEIGHT`, both positive.
fn parse_size(value: Option<String>) -> Option<(u32, u32)> {
    let value = value?;
    let (w, h) = value.split_once('x')?;
    let (w, h) = (w.parse().ok()?, h.parse().ok()?);
    (w > 0 && h > 0).then_some((w, h))
}
