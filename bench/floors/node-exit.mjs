// Floor of a headless run: node starting, running nothing, and exiting (`node -e ""`).
