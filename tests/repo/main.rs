//! The repository's own rules: the docs match the code (`docs`), the render side's lint rules stay
//! in force (`render_rules`), and the codebase keeps its shape (`shape`). No app runs.

mod docs;
mod render_rules;
mod shape;
