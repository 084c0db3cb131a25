"""The Discord bot: commands and views, the async game manager, storage."""
