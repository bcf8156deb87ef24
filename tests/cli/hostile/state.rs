//! `.stitch/` and everything stitch keeps under it, planted as symlinks, FIFOs, devices
//! or huge files.
