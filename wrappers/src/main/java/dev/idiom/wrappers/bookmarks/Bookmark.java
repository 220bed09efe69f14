package dev.idiom.wrappers.bookmarks;

import java.util.List;
import java.util.SortedSet;

/** One bookmark as the file keeps it. Folders are a path from the top; {@code privateMark}: {@code PRIVATE="1"}. */
record Bookmark(String href, String title, String addDate, String lastModified, SortedSet<String> tags, List<String> folders,
                String description, boolean privateMark) {}
