"""The pages: one HTML shell for every page, and the ES modules and styles they load."""
