enum MediaIOPlaceholder {}
