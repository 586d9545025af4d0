//! One recorded command line as the harness's call: a query for its target
//! (`get_by_role_and_name`, `get`) and the `Node`'s, `App`'s or `Mouse`'s method of the same
//! meaning, flags included.
//!
//! The flags that only say how long to wait and when to answer (`ACT`'s `--settle`, `--frames`,
//! `--timeout`, `--wait`, which the CLI and the MCP server add to every action) have the
//! harness's own form: its actions wait for their target to be actionable and settle before they
//! return. Every other flag maps to an argument or a method (`--modifiers` to `click_with`,
//! `drag`'s to `Drag`'s), or the line is sent as written (`app.ok(..)`) with a comment saying
//! what the harness has no call for. Which verbs have a call is decided here verb by verb; the
//! test `every_replayed_verb_has_a_harness_call_or_a_reason` walks the protocol's verb table,
//! so a verb added there is either given a call or named here with its reason.

use std::fmt::Write as _;

use winit_automation_protocol::{
    Button, ClockCommand, Command, DragMotion, Modifiers, Press, Selector, Target, Term,
};

/// Why a line is sent as written: what the harness has no call for.
type NoCall = String;

/// The statements for a command line: the harness's call, or `app.ok(line)` after a comment
/// saying why.
pub(super) fn command(line: &str) -> String {
    let Ok(command) = Command::parse(line) else {
        return raw(line, "not a command this recorder reads".into());
    };
    match call(&command) {
        Ok(call) => call,
        Err(why) => raw(line, why),
    }
}

/// `app.ok(line)`, after a comment saying why.
fn raw(line: &str, why: NoCall) -> String {
    format!("// sent as written: {why}\napp.ok({line:?});\n")
}

/// The harness's statement for a command, or why it has none.
fn call(command: &Command) -> Result<String, NoCall> {
    if command.act_options().is_some_and(|o| o.no_scroll) {
        return Err(
            "the harness's actions scroll their target into view (no `--no-scroll`)".into(),
        );
    }
    let verb = command.verb();
    if let Some(call) = pointer_call(command)? {
        return Ok(call);
    }
    Ok(match command {
        Command::Hover { target, .. } => on(target, "hover()".into())?,
        Command::Focus { target, .. } => on(target, "focus()".into())?,
        // A secret is read from the environment when the test runs, never written in it.
        Command::Fill {
            target,
            secret: true,
            ..
        } => on(target, format!("fill_secret(&{SECRET_FROM_ENV})"))?,
        Command::Fill { target, text, .. } => on(target, format!("fill({text:?})"))?,
        Command::Scroll {
            target,
            dx,
            dy,
            modifiers,
            ..
        } => {
            no_modifiers(*modifiers, "scroll")?;
            on(target, format!("scroll({dx:?}, {dy:?})"))?
        }
        Command::Action {
            target,
            action,
            value,
            ..
        } => on(
            target,
            format!(
                "action({:?}, {value:?})",
                winit_automation_protocol::action_name(*action)
            ),
        )?,
        Command::Wait { selector, gone, .. } => {
            let wait = if *gone { "wait_gone" } else { "wait_for" };
            format!("app.{wait}(&{});\n", by(selector))
        }
        Command::Settle { .. } => "app.settle();\n".into(),
        Command::Type { secret: true, .. } => format!("app.type_secret(&{SECRET_FROM_ENV});\n"),
        Command::Type { text, .. } => format!("app.type_text({text:?});\n"),
        Command::Key { chords, .. } => {
            let chords: Vec<String> = chords.iter().map(ToString::to_string).collect();
            format!("app.key({:?});\n", chords.join(" "))
        }
        Command::Resize { width, height, .. } => format!("app.resize({width}, {height});\n"),
        Command::Screenshot {
            crop: None,
            refs: false,
            ..
        } => "app.screenshot();\n".into(),
        Command::Screenshot {
            crop: Some(target),
            refs: false,
            ..
        } => on(target, "screenshot()".into())?,
        Command::Screenshot { .. } => {
            return Err("the harness's screenshots draw no refs".into());
        }
        Command::Audit {
            scope,
            keyboard,
            screenshot,
        } => {
            let done = if screenshot.is_some() {
                "marked"
            } else {
                "run"
            };
            format!("{}.{done}();\n", audit(scope, *keyboard)?)
        }
        Command::Quit => "app.quit();\n".into(),
        Command::Clock(clock) => format!("app.clock().{};\n", clock_call(clock)),
        _ => return Err(format!("the harness has no call for `{verb}`")),
    })
}

/// The harness's statement for a pointer gesture (`None` for another verb), or why it has none.
fn pointer_call(command: &Command) -> Result<Option<String>, NoCall> {
    Ok(Some(match command {
        Command::Click {
            target,
            button,
            press,
            modifiers,
            ..
        } => on(target, click_call(*button, *press, *modifiers)?)?,
        Command::Pinch {
            target,
            scale,
            pan: None,
            ..
        } => on(target, format!("pinch({scale:?})"))?,
        Command::Pinch {
            target,
            scale,
            pan: Some(p),
            ..
        } if *scale == 1.0 => on(target, format!("two_finger_pan({:?}, {:?})", p.x, p.y))?,
        Command::Pinch { .. } => {
            return Err("the harness pinches or pans, not both in one gesture".into());
        }
        Command::Stroke {
            points,
            button,
            modifiers,
            ..
        } => {
            only_left(*button, "stroke")?;
            no_modifiers(*modifiers, "stroke")?;
            let (first, call) = stroke_call(points)?;
            on(first, call)?
        }
        Command::Drag {
            from,
            to,
            motion,
            modifiers,
            ..
        } => on(from, drag_call(to, *motion, *modifiers)?)?,
        Command::Down {
            target,
            button,
            modifiers,
            ..
        } => {
            only_left(*button, "down")?;
            let at = place(target)?;
            if modifiers.is_empty() {
                format!("app.mouse().down({at});\n")
            } else {
                format!(
                    "app.mouse().down_with({at}, {});\n",
                    modifiers_expr(*modifiers)
                )
            }
        }
        Command::Move { target, steps, .. } => {
            if steps.is_some() {
                return Err("the harness's `Mouse::move_to` takes no `--steps`".into());
            }
            format!("app.mouse().move_to({});\n", place(target)?)
        }
        Command::Up { button, .. } => {
            only_left(*button, "up")?;
            "app.mouse().up();\n".into()
        }
        _ => return Ok(None),
    }))
}

/// The harness's audit of a scope, before the call that sends it: `app.audit()`, narrowed by
/// `.within(&By..)` and with `.keyboard()`.
pub(super) fn audit(scope: &Option<Target>, keyboard: bool) -> Result<String, NoCall> {
    let mut audit = match scope {
        None => "app.audit()".to_owned(),
        Some(Target::Selector(s)) => format!("app.audit().within(&{})", by(s)),
        Some(Target::Point(_)) => {
            return Err("the harness audits the subtree of a node, not of a point".into());
        }
        Some(Target::Ref(_)) => {
            return Err("the app could not name this ref's node by a selector".into());
        }
    };
    if keyboard {
        audit.push_str(".keyboard()");
    }
    Ok(audit)
}

/// The call on the node a target names: `None` for a ref the journal could not name or a point.
fn on(target: &Target, call: String) -> Result<String, NoCall> {
    match target {
        Target::Selector(s) => Ok(format!("{}.{call};\n", query(s))),
        Target::Point(_) => Err("the harness acts on nodes; this target is a point".into()),
        Target::Ref(_) => Err("the app could not name this ref's node by a selector".into()),
    }
}

/// A node or a point, for the calls that take either (`Mouse::down`, `move_to`, `drag_to`).
fn place(target: &Target) -> Result<String, NoCall> {
    match target {
        Target::Selector(s) => Ok(format!("&{}", query(s))),
        Target::Point(p) => Ok(format!("({:?}, {:?})", p.x, p.y)),
        Target::Ref(_) => Err("the app could not name this ref's node by a selector".into()),
    }
}

fn only_left(button: Button, verb: &str) -> Result<(), NoCall> {
    match button {
        Button::Left => Ok(()),
        _ => Err(format!("the harness's `{verb}` uses the left button only")),
    }
}

fn no_modifiers(modifiers: Modifiers, verb: &str) -> Result<(), NoCall> {
    if modifiers.is_empty() {
        Ok(())
    } else {
        Err(format!("the harness's `{verb}` holds no modifiers"))
    }
}

/// The query that finds a selector's one node.
pub(super) fn query(selector: &Selector) -> String {
    if let ([Term::Role(role), Term::Name(name)], None) = (selector.terms.as_slice(), selector.nth)
    {
        return format!("app.get_by_role_and_name({role:?}, {name:?})");
    }
    format!("app.get(&{})", by(selector))
}

/// The `By` of a selector.
pub(super) fn by(selector: &Selector) -> String {
    let mut out = String::from("By");
    for (i, term) in selector.terms.iter().enumerate() {
        let (method, value) = match term {
            Term::Role(v) => ("role", v),
            Term::Name(v) => ("name", v),
            Term::NameContains(v) => ("name_contains", v),
            Term::Id(v) => ("id", v),
            Term::Text(v) => ("text", v),
            Term::TextContains(v) => ("text_contains", v),
            Term::Label(v) => ("label", v),
            Term::LabelContains(v) => ("label_contains", v),
        };
        // `By` has a constructor for each term but name_contains, which only chains.
        if i == 0 && method != "name_contains" {
            let _ = write!(out, "::{method}({value:?})");
        } else {
            if i == 0 {
                out.push_str("::default()");
            }
            let _ = write!(out, ".and_{method}({value:?})");
        }
    }
    if let Some(n) = selector.nth {
        let _ = write!(out, ".nth({n})");
    }
    out
}

/// The harness's call on a node for a `click`.
fn click_call(button: Button, press: Press, modifiers: Modifiers) -> Result<String, NoCall> {
    Ok(match (button, press, modifiers.is_empty()) {
        (Button::Left, Press::Single, true) => "click()".into(),
        (Button::Left, Press::Single, false) => {
            format!("click_with({})", modifiers_expr(modifiers))
        }
        (Button::Left, Press::Double, true) => "double_click()".into(),
        (Button::Left, Press::Hold(ms), true) => format!("long_press({ms})"),
        (Button::Right, Press::Single, true) => "right_click()".into(),
        _ => {
            return Err(
                "the harness's clicks are left ones (single, double, held, with modifiers) or a plain right one"
                    .into(),
            );
        }
    })
}

/// The harness's call on the node a `stroke` starts at, with that node: every later point must
/// be a point.
fn stroke_call(points: &[Target]) -> Result<(&Target, String), NoCall> {
    let (first, rest) = points
        .split_first()
        .ok_or_else(|| NoCall::from("a stroke with no points"))?;
    let rest: Vec<String> = rest
        .iter()
        .map(|p| match p {
            Target::Point(p) => Some(format!("({:?}, {:?})", p.x, p.y)),
            _ => None,
        })
        .collect::<Option<_>>()
        .ok_or_else(|| NoCall::from("the harness's `stroke` passes through points only"))?;
    Ok((first, format!("stroke(&[{}])", rest.join(", "))))
}

/// The harness's call on the node a `drag` starts at: `drag_to(..)` with the defaults, else
/// `drag(..)` shaped by its flags.
fn drag_call(to: &Target, motion: DragMotion, modifiers: Modifiers) -> Result<String, NoCall> {
    let to = place(to)?;
    if motion == DragMotion::default() && modifiers.is_empty() {
        return Ok(format!("drag_to({to})"));
    }
    let mut call = format!("drag({to})");
    if let Some(n) = motion.steps {
        let _ = write!(call, ".steps({n})");
    }
    if let Some(ms) = motion.hold_ms {
        let _ = write!(call, ".hold({ms})");
    }
    if let Some(ms) = motion.dwell_ms {
        let _ = write!(call, ".dwell({ms})");
    }
    if !modifiers.is_empty() {
        let _ = write!(call, ".modifiers({})", modifiers_expr(modifiers));
    }
    Ok(format!("{call}.perform()"))
}

/// The expression a generated test reads a recorded secret with (the journal kept only
/// [`winit_automation_protocol::SECRET_PLACEHOLDER`]).
const SECRET_FROM_ENV: &str = "std::env::var(\"WINIT_AUTOMATION_SECRET\").expect(\"set WINIT_AUTOMATION_SECRET to the secret this test types\")";

/// The harness's expression for modifiers: `winit_automation_testing::Modifiers::CTRL |
/// winit_automation_testing::Modifiers::SHIFT`.
fn modifiers_expr(m: Modifiers) -> String {
    let names = [
        (m.ctrl, "CTRL"),
        (m.alt, "ALT"),
        (m.shift, "SHIFT"),
        (m.meta, "META"),
    ];
    let held: Vec<String> = names
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, n)| format!("winit_automation_testing::Modifiers::{n}"))
        .collect();
    held.join(" | ")
}

#[cfg(test)]
mod tests;

/// The harness's clock call for a `clock` command (`app.clock().` goes before it).
fn clock_call(clock: &ClockCommand) -> String {
    let ms = |ms: u64| format!("std::time::Duration::from_millis({ms})");
    match *clock {
        ClockCommand::Read => "now()".into(),
        ClockCommand::Pause => "pause()".into(),
        ClockCommand::Resume => "resume()".into(),
        ClockCommand::Real => "set_real()".into(),
        ClockCommand::Virtual { step_ms: None } => "set_virtual(None)".into(),
        ClockCommand::Virtual { step_ms: Some(s) } => format!("set_virtual(Some({}))", ms(s)),
        ClockCommand::Run {
            ms: t,
            step_ms: None,
        } => format!("run_for({})", ms(t)),
        ClockCommand::Run {
            ms: t,
            step_ms: Some(s),
        } => format!("run_for_in_steps({}, {})", ms(t), ms(s)),
    }
}
