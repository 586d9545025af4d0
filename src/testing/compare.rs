//! Screenshot comparison (being written).
