//! Menus: the menu bar's, the Popups demo's menu with its submenus, and its context menu.

use super::*;

#[test]
fn menus_submenus_and_a_context_menu_open_and_act() {
    let (demo, _) = gallery();

    // The menu bar's File menu opens below it; Escape closes it.
    let body = demo.ok("click role=button name=File --settle --timeout 20000");
    assert!(body.contains("\nhit verified\n"), "{body}");
    added(&body, "button \"Organize Windows");
    let body = demo.ok("key Escape --settle --timeout 20000");
    removed(&body, "button \"Organize Windows");

    // The Popups demo: its button opens a menu on a click, a context menu on a right click.
    let body = demo.ok("click role=button name~=Popups --settle --timeout 20000");
    added(&body, "window \"❕ Popups\"");
    let opener = "role=button name~=\"Click, right-click\"";
    let body = demo.ok(&format!("click {opener} --settle --timeout 20000"));
    assert!(body.contains("\nhit verified\n"), "{body}");
    let (bx, _, bw, _) = bounds(line_of(&body, "target @e"));
    let (mx, ..) = bounds(added(&body, "button \"Popups can have submenus\""));
    assert!(
        mx < bx + bw / 2.0,
        "the menu lies at the button's left edge: {body}"
    );
    let item = added(&body, "button \"Always CloseOnClickOutside\"");
    let (ix, _, iw, _) = bounds(item);

    // A submenu opens to the right of its item; its checkbox shows or hides a third level,
    // whose button unchecks the checkbox: three levels of menus, each click landing.
    let body =
        demo.ok("click role=button name=\"Always CloseOnClickOutside\" --settle --timeout 20000");
    assert!(body.contains("\nhit verified\n"), "{body}");
    let checkbox = added(&body, "checkbox \"Checkbox\" checked");
    assert!(bounds(checkbox).0 >= ix + iw, "right of its item: {body}");
    let checkbox = ref_in(checkbox);
    added(&body, "button \"Only visible when checked\"");
    let body =
        demo.ok("click role=button name=\"Only visible when checked\" --settle --timeout 20000");
    added(&body, "button \"Remove myself\"");
    let body = demo.ok("click role=button name=\"Remove myself\" --settle --timeout 20000");
    assert!(body.contains("\nhit verified\n"), "{body}");
    assert!(
        now(&body, &format!("{checkbox} checkbox")).contains("unchecked"),
        "{body}"
    );
    removed(&body, "button \"Only visible when checked\"");
    removed(&body, "button \"Remove myself\"");

    // Escape closes the whole chain (this one closes on a click outside only).
    let body = demo.ok("key Escape --settle --timeout 20000");
    removed(&body, "button \"Always CloseOnClickOutside\"");
    removed(&body, &format!("{checkbox} checkbox"));

    // The context menu: a right click opens it at the pointer (the button's centre), hovering an
    // item opens its submenu, and a click on an item closes them both.
    let body = demo.ok(&format!("click {opener} --right --settle --timeout 20000"));
    assert!(body.contains("\nbutton right\n"), "{body}");
    assert!(body.contains("\nhit verified\n"), "{body}");
    let (cx, ..) = bounds(added(&body, "button \"Popups can have submenus\""));
    assert!(
        cx > bx + bw / 2.0,
        "the context menu lies at the pointer: {body}"
    );
    let body =
        demo.ok("hover role=button name=\"Popups can have submenus\" --settle --timeout 20000");
    added(&body, "button \"SubMenu\"");
    let body = demo.ok("click role=button name=\"Open…\" nth=0 --settle --timeout 20000");
    assert!(body.contains("\nhit verified\n"), "{body}");
    removed(&body, "button \"Popups can have submenus\"");
    removed(&body, "button \"SubMenu\"");

    demo.quit();
}
