export { Spinner, UNICODE_SPINNER, ASCII_SPINNER, type SpinnerProps } from './spinner.js';
